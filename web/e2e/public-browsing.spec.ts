import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "@playwright/test";
import { seriousViolations } from "./support/axe";
import { entry } from "./support/explorer";
import { adminToken, createLocalMount, putFile, useAdminSession } from "./support/factories";
import { expect, failedResource, test } from "./support/fixtures";

/**
 * Public browsing: the admin opens a folder to visitors in its folder settings; a visitor without
 * credentials then browses and downloads it in the explorer, read-only, and gets 401 (sign in)
 * or 404 (hidden) for everything else, in both languages and themes and at phone width.
 */
test.describe.configure({ mode: "serial" });

let token: string;
const run = Date.now().toString(36);
const mount = `/pub-${run}`;

test.beforeAll(async ({ request }) => {
  token = await adminToken(request);
  await createLocalMount(request, token, mount, { name: `pub-${run}`, storageName: `pub-${run}` });
  await putFile(request, token, `${mount}/open/hello.txt`, "hello visitors");
  await putFile(request, token, `${mount}/open/notes.key`, "hidden bytes");
  await putFile(request, token, `${mount}/closed/secret.txt`, "not for visitors");
  const hide = await request.put("/api/admin/folder-settings", {
    headers: { Authorization: `Bearer ${token}` },
    data: { path: `${mount}/open`, hide_patterns: "*.key" },
  });
  expect(hide.status(), await hide.text()).toBe(200);
});

// Other specs share this server and expect the explorer to ask visitors to sign in.
test.afterAll(async ({ request }) => {
  await request.delete(`/api/admin/folder-settings?path=${encodeURIComponent(`${mount}/open`)}`, {
    headers: { Authorization: `Bearer ${token}` },
  });
});

/** A browser context without credentials, in `language` and `theme`. */
async function visitor(browser: Browser, language: "en" | "zh" = "en", theme = "light"): Promise<Page> {
  const context = await browser.newContext({
    baseURL: process.env.E2E_BASE_URL,
    locale: language === "zh" ? "zh-CN" : "en-US",
    acceptDownloads: true,
  });
  await context.addInitScript(
    ({ language, theme }) => {
      localStorage.setItem("language", language);
      localStorage.setItem("themeMode", theme);
    },
    { language, theme },
  );
  return context.newPage();
}

test("the admin opens a folder to visitors in its folder settings", async ({ page }) => {
  await useAdminSession(page, token, `/mount-explorer${mount}/open`);
  await expect(entry(page, "hello.txt")).toBeVisible();
  await page.getByRole("button", { name: "Folder settings" }).click();
  const dialog = page.getByRole("dialog", { name: "Folder settings" });
  await dialog.getByLabel("Public listing").selectOption("yes");
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId("folder-public")).toHaveText(
    "Visitors may browse this folder without signing in",
  );
});

test("a visitor browses and downloads the public folder, and gets 401/404 everywhere else", async ({
  browser,
  consoleGuard,
}) => {
  const page = await visitor(browser);
  consoleGuard.watch(page);
  // The folder outside the public part is answered 401, as it should be.
  consoleGuard.allow(failedResource(401));
  await page.goto("/mount-explorer");
  await expect(page.getByRole("heading", { name: "Public files" })).toBeVisible();
  // The way to the public folder, and nothing beside it.
  await entry(page, mount.slice(1)).getByRole("button").first().click();
  await expect(entry(page, "open")).toBeVisible();
  await expect(entry(page, "closed")).toHaveCount(0);
  await entry(page, "open").getByRole("button").first().click();
  await expect(entry(page, "hello.txt")).toBeVisible();
  await expect(entry(page, "notes.key")).toHaveCount(0);
  // Read-only: nothing to upload, no tasks.
  await expect(page.getByRole("button", { name: "Upload" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Tasks" })).toHaveCount(0);
  expect(await seriousViolations(page, "public folder as a visitor")).toEqual([]);

  await entry(page, "hello.txt").click({ button: "right" });
  const downloading = page.waitForEvent("download");
  await page.getByRole("menuitem", { name: "Download" }).click();
  const saved = join(test.info().outputDir, "hello.txt");
  await (await downloading).saveAs(saved);
  expect(readFileSync(saved, "utf8")).toBe("hello visitors");

  const api = page.request;
  expect((await api.get(`/api/fs/list?path=${mount}/closed`)).status()).toBe(401);
  expect((await api.get(`/api/fs/download?path=${mount}/closed/secret.txt`)).status()).toBe(401);
  expect((await api.get(`/api/fs/download?path=${mount}/open/notes.key`)).status()).toBe(404);
  expect((await api.post("/api/fs/mkdir", { data: { path: `${mount}/open/new` } })).status()).toBe(401);

  await page.goto(`/mount-explorer${mount}/closed`);
  await expect(page.getByRole("alert")).toContainText("log in");
  await expect(page.getByText("not for visitors")).toHaveCount(0);
  await page.context().close();
});

test("the visitor's explorer in Chinese, dark, at phone width", async ({ browser, consoleGuard }) => {
  const page = await visitor(browser, "zh", "dark");
  consoleGuard.watch(page);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/mount-explorer${mount}/open`);
  await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
  await expect(page.getByRole("heading", { name: "公开文件" })).toBeVisible();
  await expect(entry(page, "hello.txt")).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  expect(await seriousViolations(page, "public folder, dark, phone, Chinese")).toEqual([]);
  await page.context().close();
});
