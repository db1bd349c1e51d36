import { describe, expect, it } from "vitest";
import { mayBeCode } from "./detect";

const CODE: Record<string, string> = {
  javascript: "const total = items.reduce((sum, item) => sum + item.price, 0);\nconsole.log(total);",
  typescript: 'export function greet(name: string): string {\n  return "Hello " + name;\n}',
  python: "def area(r):\n    return 3.14159 * r * r\n\nprint(area(2))",
  json: '{\n  "name": "clipshare",\n  "version": "0.7.3",\n  "private": true\n}',
  shell: "#!/bin/sh\nset -e\ncd /srv/app && npm ci\n./start.sh --port 8080",
  sql: "SELECT id, slug FROM pastes\nWHERE expires_at < now()\nORDER BY created_at DESC;",
  c: '#include <stdio.h>\n\nint main(void) {\n  printf("hi\\n");\n  return 0;\n}',
  html: '<!DOCTYPE html>\n<html>\n  <body>\n    <p class="note">Hi</p>\n  </body>\n</html>',
  yaml: "services:\n  web:\n    image: clipshare:0.7.3\n    ports:\n      - 3000:3000",
  go: 'package main\n\nimport "fmt"\n\nfunc main() {\n\tfmt.Println("hi")\n}',
  css: ".card {\n  padding: 1rem;\n  border-radius: 8px;\n}",
  diff: "--- a/src/app.ts\n+++ b/src/app.ts\n@@ -1,3 +1,3 @@\n-const a = 1;\n+const a = 2;",
  "one line": "for (let i = 0; i < n; i++) sum += values[i];",
};

const PROSE: Record<string, string> = {
  "meeting notes": "Meeting notes\nRoom 4, 10:00",
  paragraph:
    "The quarterly review went well. Sales grew in every region, and the team\n" +
    "expects the new office to open in the spring. Thanks to everyone who helped\n" +
    "with the move, especially the people who stayed late on Friday.",
  "shopping list": "milk\neggs\nbread (wholemeal)\napples",
  chinese: "今天下午三点在会议室开会，请大家准时参加。\n会议内容：季度总结和下季度计划。",
  "letter with a greeting": "Hi Anna,\n\nthe keys are under the mat. See you on Monday!\n\nBest,\nTom",
  "address and phone": "Tom Smith\n12 High Street\nCambridge CB2 1TN\nPhone: +44 1223 000000",
  "a link": "https://example.com/docs/getting-started",
  "a single word": "hello",
  empty: "",
};

describe("whether a plain text may be code (before loading the highlighter)", () => {
  for (const [name, text] of Object.entries(CODE)) {
    it(`${name} may be code`, () => expect(mayBeCode(text)).toBe(true));
  }
  for (const [name, text] of Object.entries(PROSE)) {
    it(`${name} is not code`, () => expect(mayBeCode(text)).toBe(false));
  }

  it("decides on the start of a large paste only", () => {
    const prose = `${PROSE.paragraph}\n`.repeat(2_000);
    expect(mayBeCode(prose)).toBe(false);
    expect(mayBeCode(`${CODE.javascript}\n`.repeat(2_000))).toBe(true);
    expect(mayBeCode(`${prose}${CODE.javascript}`)).toBe(false);
  });
});
