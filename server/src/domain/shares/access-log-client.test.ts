import { describe, expect, it } from "vitest";
import { describeClient } from "./access-log-client";

describe("describeClient", () => {
  const cases: Array<[string | undefined, string, string]> = [
    [
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
      "chrome",
      "windows",
    ],
    [
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0",
      "edge",
      "windows",
    ],
    [
      "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.2 Safari/605.1.15",
      "safari",
      "macos",
    ],
    [
      "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/120.0 Mobile/15E148 Safari/604.1",
      "chrome",
      "ios",
    ],
    ["Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0", "firefox", "linux"],
    [
      "Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/23.0 Chrome/115.0 Mobile Safari/537.36",
      "samsung",
      "android",
    ],
    [
      "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36 OPR/106.0",
      "opera",
      "linux",
    ],
    ["Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)", "bot", "other"],
    [
      "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120.0 Safari/537.36",
      "bot",
      "linux",
    ],
    ["curl/8.5.0", "cli", "other"],
    ["Wget/1.21.4", "cli", "other"],
    ["python-requests/2.31.0", "cli", "other"],
    ["SomethingElse/1.0", "other", "other"],
    ["", "unknown", "unknown"],
    [undefined, "unknown", "unknown"],
  ];
  it.each(cases)("%s → %s on %s", (ua, browser, os) => {
    expect(describeClient(ua)).toEqual({ browser, os });
  });
});
