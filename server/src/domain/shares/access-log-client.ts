/**
 * The coarse client description of an access-log entry: a browser family and
 * an OS family read from the User-Agent, `bot` for crawlers and link
 * previewers, `cli` for command-line tools and HTTP libraries. Deliberately
 * coarse (no versions, no device models), so an entry says how a share was
 * opened without fingerprinting who opened it.
 */
import type { ClientBrowser, ClientOs } from "@clipshare/shared";
import { isLinkPreviewBot } from "./preview-bots";

export interface ClientDescription {
  browser: ClientBrowser;
  os: ClientOs;
}

/** Tools and libraries that announce themselves first in their User-Agent. */
const CLI_PATTERN =
  /^(curl|wget|httpie|aria2|axel|powershell|python-requests|python-urllib|python-httpx|aiohttp|go-http-client|okhttp|java\/|apache-httpclient|node-fetch|undici|node|axios|got|rclone|clipshare|libwww-perl|ruby|dart)/i;

/** First match wins: Edge, Opera and Samsung also claim Chrome; Chrome also claims Safari. */
const BROWSERS: Array<[RegExp, ClientBrowser]> = [
  [/\bEdg(e|A|iOS)?\//, "edge"],
  [/\b(OPR|Opera|OPiOS)\//, "opera"],
  [/\bSamsungBrowser\//, "samsung"],
  [/\b(Firefox|FxiOS)\//, "firefox"],
  [/\b(Chrome|Chromium|CriOS)\//, "chrome"],
  [/\bVersion\/[\d.]+.*\bSafari\//, "safari"],
];

/** iOS before macOS (iPads may say "like Mac OS X"), Android and ChromeOS before Linux. */
const SYSTEMS: Array<[RegExp, ClientOs]> = [
  [/\bWindows\b/, "windows"],
  [/\b(iPhone|iPad|iPod)\b/, "ios"],
  [/\b(Mac OS X|Macintosh|macOS)\b/, "macos"],
  [/\bAndroid\b/, "android"],
  [/\bCrOS\b/, "chromeos"],
  [/\b(Linux|X11|Ubuntu|Fedora)\b/, "linux"],
];

/** Recent answers by User-Agent: a share's visitors mostly send a handful of them. */
const recent = new Map<string, ClientDescription>();
const RECENT_MAX = 256;

export function describeClient(userAgent: string | undefined | null): ClientDescription {
  const ua = (userAgent ?? "").slice(0, 512).trim();
  let described = recent.get(ua);
  if (!described) {
    described = classify(ua);
    if (recent.size >= RECENT_MAX) recent.delete(recent.keys().next().value as string);
    recent.set(ua, described);
  }
  return described;
}

function classify(ua: string): ClientDescription {
  if (ua === "") return { browser: "unknown", os: "unknown" };
  const os = SYSTEMS.find(([pattern]) => pattern.test(ua))?.[1] ?? "other";
  if (isLinkPreviewBot(ua) || /headless|phantomjs|crawl/i.test(ua)) return { browser: "bot", os };
  if (CLI_PATTERN.test(ua)) return { browser: "cli", os };
  const browser = BROWSERS.find(([pattern]) => pattern.test(ua))?.[1] ?? "other";
  return { browser, os };
}
