// First-page weight: builds nothing, needs `npm run build`. Starts the built server
// on a throwaway data directory, opens each page in a fresh headless Chromium profile
// and prints the JavaScript it received (bytes as sent, headers included) against its target, then what the
// service worker downloads on a first visit. Exits 1 when something is over target.
// --files lists every script of each page.
//   node scripts/bundle-size.mjs            (CHROMIUM_PATH overrides /usr/bin/chromium)
import { chromium } from "playwright";
import {
  kb,
  measurePage,
  measurePrecache,
  PAGE_BUDGETS_KB,
  PAGE_CEILINGS_KB,
  WORKER_FIRST_VISIT_KB,
} from "../web/scripts/page-weight.mjs";
import { startServer } from "./bench/server-process.mjs";

const server = await startServer();
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
});
let failed = false;
try {
  const token = await server.login();
  const createPaste = async (content, format) => {
    const res = await fetch(`${server.base}/api/paste`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify({ content, format }),
    });
    if (res.status !== 201) throw new Error(`creating a paste: ${res.status} ${await res.text()}`);
    return (await res.json()).data.slug;
  };
  const plain = await createPaste("Meeting notes\nRoom 4, 10:00", "plain");
  const markdown = await createPaste("# Notes\n\n```js\nconsole.log('hi')\n```\n", "markdown");
  const adminState = {
    origins: [{ origin: server.base, localStorage: [{ name: "admin_token", value: token }] }],
  };

  const pages = [
    {
      name: "paste (plain text)",
      key: "paste",
      path: `/paste/${plain}`,
      ready: (page) => page.getByText("Room 4, 10:00").waitFor(),
    },
    {
      name: "paste (Markdown)",
      key: null,
      path: `/paste/${markdown}`,
      ready: (page) => page.locator(".hljs").first().waitFor(),
    },
    {
      name: "home signed out",
      key: "home",
      path: "/",
      ready: (page) => page.locator(".cm-editor").waitFor(),
    },
    {
      name: "home signed in",
      key: "homeSignedIn",
      path: "/",
      ready: (page) => page.locator(".cm-editor").waitFor(),
      contextOptions: { storageState: adminState },
    },
  ];
  console.log("\nJavaScript received on a first visit (bytes as sent, headers included):");
  for (const p of pages) {
    const { files, total } = await measurePage(browser, server.base, p.path, p.ready, p.contextOptions);
    const target = p.key && PAGE_BUDGETS_KB[p.key];
    const over = Boolean(target) && total > target * 1024;
    failed ||= over;
    const verdict = !target ? "info" : over ? "FAIL" : "PASS";
    console.log(
      `  ${verdict}  ${p.name.padEnd(20)} ${kb(total).padStart(9)} in ${String(files.length).padStart(2)} files` +
        (target ? `  (target ${target} KB, tests hold it under ${PAGE_CEILINGS_KB[p.key]} KB)` : ""),
    );
    if (process.argv.includes("--files")) {
      for (const f of files) console.log(`          ${kb(f.bytes).padStart(9)}  ${f.file}`);
    }
  }

  console.log("\nWhat the service worker fetches itself on a first visit (bytes as sent):");
  for (const [name, path] of [
    ["Home", "/"],
    ["paste (plain text)", `/paste/${plain}`],
  ]) {
    const precache = await measurePrecache(browser, server.base, path);
    const over = precache.total > WORKER_FIRST_VISIT_KB * 1024;
    failed ||= over;
    console.log(
      `  ${over ? "FAIL" : "PASS"}  ${name.padEnd(20)} ${kb(precache.total).padStart(9)} in ${String(precache.files.length).padStart(2)} files  (budget ${WORKER_FIRST_VISIT_KB} KB)`,
    );
  }
  console.log();
} finally {
  await browser.close();
  await server.stop();
}
process.exit(failed ? 1 : 0);
