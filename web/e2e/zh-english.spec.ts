import { type APIRequestContext, request as playwrightRequest } from "@playwright/test";
import { startTestServer } from "./global-setup";
import { expect, failedResource, test } from "./support/fixtures";
import {
  allScreens,
  openAs,
  type Principal,
  type SampleData,
  seedSampleData,
  showScreen,
} from "./support/screens";

/**
 * Every screen in Chinese shows no English word outside a small allow-list:
 * the product name, technical names users know as they are, units, and the
 * names of the sample data (file names and links are the user's own).
 */
const ALLOWED = new Set(
  [
    "ClipShare",
    "paste", // link paths: /paste/…, /file/…
    "file",
    "Ctrl", // key names
    "Tab",
    "Esc",
    "UTC",
    "English", // the language switch names the other language in that language
    "API",
    "URL",
    "URLs",
    "S3",
    "WebDAV",
    "Markdown",
    "ZIP",
    "QR",
    "ID",
    "PWA",
    "HTTP",
    "HTTPS",
    "IP", // as in "IP 地址"
    "TTL",
    "CORS",
    "ETag",
    "JSON",
    "POST",
    "OpenID", // single sign-on: the protocol, the providers a hint names, the usual role claims
    "Connect",
    "Keycloak",
    "Authentik",
    "Google",
    "Microsoft",
    "Entra",
    "groups",
    "roles",
    "Webhook", // delivery protocols and their names
    "SMTP",
    "STARTTLS",
    "TLS",
    "LOCAL",
    "txt",
    "text",
    "plain",
    "KB",
    "MB",
    "GB",
    "TB",
    "KiB",
    "MiB",
    "GiB",
  ].map((w) => w.toLowerCase()),
);

// A fresh install of its own, so the screens hold only the sample data (and its names are known).
let server: Awaited<ReturnType<typeof startTestServer>>;
let api: APIRequestContext;
let data: SampleData;
test.beforeAll(async () => {
  server = await startTestServer({ logName: "e2e-zh-server.log" });
  api = await playwrightRequest.newContext({ baseURL: server.baseUrl });
  data = await seedSampleData(api);
});
test.afterAll(async () => {
  await api?.dispose();
  await server?.stop();
});

test("no English words on any screen in Chinese", async ({ browser, consoleGuard }) => {
  test.setTimeout(180_000);
  consoleGuard.allow(failedResource(404));
  const sampleWords = new Set(data.names.flatMap((n) => n.toLowerCase().match(/[a-z]+/g) ?? []));
  const found: Record<string, string[]> = {};
  const screens = allScreens(data);
  for (const as of ["visitor", "admin", "key"] as Principal[]) {
    const { context, page } = await openAs(browser, api, as, data, {
      language: "zh",
      theme: "light",
      baseURL: server.baseUrl,
    });
    for (const screen of screens.filter((s) => s.as === as)) {
      await showScreen(page, screen);
      const text = await page.evaluate(() => {
        // Texts the user sees or hears: visible text plus accessible names and placeholders.
        const extra = [...document.querySelectorAll("[aria-label], [title], [placeholder]")].map((el) =>
          ["aria-label", "title", "placeholder"].map((a) => el.getAttribute(a) ?? "").join(" "),
        );
        // Content marked translate="no" (masked keys and other machine strings) is not language.
        const untranslated = [...document.querySelectorAll<HTMLElement>('[translate="no"]')].map(
          // biome-ignore lint/performance/useDomNodeTextContent: the same visible text innerText gives below
          (el) => el.innerText,
        );
        // biome-ignore lint/performance/useDomNodeTextContent: only the text a user sees counts (innerText skips hidden text)
        let visible = document.body.innerText;
        // Longest first: a short part inside a longer one (a method name in a summary) must not split it first.
        untranslated.sort((a, b) => b.length - a.length);
        for (const part of untranslated) if (part) visible = visible.split(part).join(" ");
        return `${visible} ${extra.join(" ")} ${document.title}`;
      });
      // Identifiers and paths (random link suffixes, keys, folders, file extensions, domains, settings
      // such as URL_FETCH_ALLOW, headers such as X-ClipShare-Signature, templates such as
      // "<timestamp>.<body>") are data, not words.
      const words = (text.split(/[\s，。：；、（）()「」"“”,:;!?…·|]+/) ?? [])
        .filter(
          (token) =>
            !/[0-9/\\@_<]/.test(token) &&
            // A domain name such as example.com (not a raw text key such as "pasteView.copyLink").
            !/^[\w-]+(\.[\w-]+)*\.(com|org|net|io|dev)$/i.test(token) &&
            !token.startsWith(".") &&
            !token.startsWith("X-"),
        )
        .flatMap((token) => token.match(/[A-Za-z][A-Za-z']+/g) ?? []);
      const english = [...new Set(words)].filter(
        (w) => !ALLOWED.has(w.toLowerCase()) && !sampleWords.has(w.toLowerCase()),
      );
      if (english.length > 0) found[screen.name] = english;
    }
    await context.close();
  }
  expect(found).toEqual({});
});
