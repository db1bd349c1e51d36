import { describe, expect, it } from "vitest";
import { evaluateList, IfHeaderError, parseIfHeader, submittedTokens } from "./if-header";

describe("parseIfHeader", () => {
  it("parses untagged lists with Not, tokens and entity tags", () => {
    const lists = parseIfHeader(`(<urn:uuid:1> ["abc"]) (Not <DAV:no-lock> [W/"x y"])`);
    expect(lists).toEqual([
      {
        resource: null,
        conditions: [
          { not: false, kind: "token", value: "urn:uuid:1" },
          { not: false, kind: "etag", value: '"abc"' },
        ],
      },
      {
        resource: null,
        conditions: [
          { not: true, kind: "token", value: "DAV:no-lock" },
          { not: false, kind: "etag", value: 'W/"x y"' },
        ],
      },
    ]);
    expect([...submittedTokens(lists)]).toEqual(["urn:uuid:1"]);
  });

  it("parses tagged lists", () => {
    const lists = parseIfHeader(`<http://h/dav/a> (<urn:uuid:1>) (["e"]) </dav/b> (Not <urn:uuid:2>)`);
    expect(lists.map((l) => l.resource)).toEqual(["http://h/dav/a", "http://h/dav/a", "/dav/b"]);
  });

  it.each([
    "",
    "junk",
    "(",
    "()",
    "(<a>",
    '(["abc)',
    "(abc)",
    "<http://x>",
    "(<a>) <http://x> (<b>)",
    "([abc])",
  ])("refuses %j", (header) => {
    expect(() => parseIfHeader(header)).toThrow(IfHeaderError);
  });
});

describe("evaluateList", () => {
  const state = { etag: '"e1"', lockTokens: new Set(["urn:uuid:1"]) };
  it("needs every condition of a list", () => {
    const [a, b, c] = parseIfHeader(
      `(<urn:uuid:1> ["e1"]) (<urn:uuid:1> ["e2"]) (Not <DAV:no-lock> [W/"e1"])`,
    );
    expect(evaluateList(a!, state)).toBe(true);
    expect(evaluateList(b!, state)).toBe(false);
    expect(evaluateList(c!, state)).toBe(true);
  });
  it("never matches an entity tag of a missing resource", () => {
    const [a] = parseIfHeader(`(["e1"])`);
    expect(evaluateList(a!, { etag: null, lockTokens: new Set() })).toBe(false);
  });
});
