import { describe, expect, it } from "vitest";
import { browserOf } from "./session-label";

describe("the name of a session's browser", () => {
  it.each([
    [
      "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
      "Chrome · Linux",
    ],
    ["Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0", "Firefox · Windows"],
    [
      "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
      "Safari · iOS",
    ],
    [
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0",
      "Edge · Windows",
    ],
    ["curl/8.5.0", "curl"],
  ])("%s → %s", (agent, name) => {
    expect(browserOf(agent)).toBe(name);
  });

  it("is null without a User-Agent, and a short cut of one it does not know", () => {
    expect(browserOf(null)).toBeNull();
    expect(browserOf("SomeTool/1.0 (custom)")).toBe("SomeTool/1.0 (custom)");
  });
});
