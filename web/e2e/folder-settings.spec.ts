import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Permission } from "@clipshare/shared";
import type { APIRequestContext, Page } from "@playwright/test";
import { seriousViolations } from "./support/axe";
import { entry } from "./support/explorer";
import {
  adminToken,
  createApiKey,
  createLocalMount,
  putFile,
  signInWithKeyViaForm,
  useAdminSession,
} from "./support/factories";
import { expect, failedResource, test, unique } from "./support/fixtures";

/**
 * Folder settings in the explorer: the admin's dialog, a readme inherited by
 * sub-folders, hide patterns that a key does not get past (listing, search,
 * ZIP, PROPFIND) while the admin still sees everything, and a path password
 * asked once, after which the folder's downloads work.
 */
test.describe.configure({ mode: "serial" });

let token: string;
let keySecret: string;
const run = Date.now().toString(36);
const mount = `/fold-${run}`;
const KEY_BITS =
  Permission.MOUNT_VIEW | Permission.MOUNT_UPLOAD | Permission.MOUNT_COPY | Permission.WEBDAV_READ;

test.beforeAll(async ({ request }) => {
  token = await adminToken(request);
  await createLocalMount(request, token, mount, { name: `fold-${run}`, storageName: `fold-${run}` });
  await putFile(request, token, `${mount}/docs/a.txt`, "alpha");
  await putFile(request, token, `${mount}/docs/secret.key`, "hidden bytes");
  await putFile(request, token, `${mount}/docs/guides/b.txt`, "bravo");
  await putFile(request, token, `${mount}/vault/v.txt`, "vault bytes");
  keySecret = (await createApiKey(request, token, { name: unique("fold"), permissions: KEY_BITS })).key;
});

async function signInWithKey(page: Page): Promise<void> {
  await signInWithKeyViaForm(page, keySecret);
  await expect(page.getByRole("heading", { name: "User panel" })).toBeVisible();
}

const keyHeaders = () => ({ Authorization: `ApiKey ${keySecret}` });
const adminHeaders = () => ({ Authorization: `Bearer ${token}` });

async function searchNames(request: APIRequestContext, headers: Record<string, string>) {
  const res = await request.get(`/api/fs/search?q=secret&scope=directory&path=${mount}`, { headers });
  expect(res.status()).toBe(200);
  return ((await res.json()).data.results as Array<{ name: string }>).map((r) => r.name);
}

test("the admin sets a readme and hide patterns; the readme shows in sub-folders too", async ({ page }) => {
  await useAdminSession(page, token, `/mount-explorer${mount}/docs`);
  await expect(entry(page, "a.txt")).toBeVisible();
  await page.getByRole("button", { name: "Folder settings" }).click();
  const dialog = page.getByRole("dialog", { name: "Folder settings" });
  await dialog.getByLabel("Header").fill("Team documents");
  await dialog.getByLabel("Readme (Markdown)").fill("## Start here\n\nRead **a.txt** first.");
  await dialog.getByLabel("Hide patterns").fill("*.key");
  expect(await seriousViolations(page, "folder settings dialog")).toEqual([]);
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog).toBeHidden();

  const notes = page.getByRole("region", { name: "About this folder" });
  await expect(notes.getByText("Team documents")).toBeVisible();
  await expect(notes.getByRole("heading", { name: "Start here" })).toBeVisible();
  // The admin still sees what is hidden from others.
  await expect(entry(page, "secret.key")).toBeVisible();

  await entry(page, "guides").getByRole("button").first().click();
  await expect(page).toHaveURL(new RegExp(`${mount}/docs/guides`));
  await expect(entry(page, "b.txt")).toBeVisible();
  await expect(notes.getByRole("heading", { name: "Start here" })).toBeVisible();
  expect(await seriousViolations(page, "explorer with a readme")).toEqual([]);

  // Every folder's settings, listed in the dialog.
  await page.getByRole("button", { name: "Folder settings" }).click();
  await expect(page.getByTestId("folder-settings-list")).toContainText(`${mount}/docs/`);
  await expect(page.getByTestId("folder-settings-list")).toContainText("hides *.key");
  await page.keyboard.press("Escape");
});

test("a hidden pattern removes entries from listing, search, ZIP and PROPFIND for a key, not the admin", async ({
  page,
  request,
}) => {
  await signInWithKey(page);
  await page.goto(`/mount-explorer${mount}/docs`);
  await expect(entry(page, "a.txt")).toBeVisible();
  await expect(entry(page, "secret.key")).toHaveCount(0);
  await expect(page.getByRole("region", { name: "About this folder" })).toContainText("Team documents");
  // A key cannot manage folder settings.
  await expect(page.getByRole("button", { name: "Folder settings" })).toHaveCount(0);

  expect(await searchNames(request, keyHeaders())).toEqual([]);
  expect(await searchNames(request, adminHeaders())).toEqual(["secret.key"]);

  const zipFor = async (headers: Record<string, string>) => {
    const res = await request.post("/api/fs/zip", { headers, data: { paths: [`${mount}/docs`] } });
    expect(res.status()).toBe(200);
    return (await res.body()).toString("latin1");
  };
  expect(await zipFor(keyHeaders())).not.toContain("secret.key");
  expect(await zipFor(adminHeaders())).toContain("secret.key");

  const propfind = await request.fetch(`/dav${mount}/docs`, {
    method: "PROPFIND",
    headers: { Authorization: `Basic ${Buffer.from(`k:${keySecret}`).toString("base64")}`, Depth: "1" },
  });
  expect(propfind.status()).toBe(207);
  const xml = await propfind.text();
  expect(xml).toContain("a.txt");
  expect(xml).not.toContain("secret.key");
});

test("a path password is asked once, then the folder's downloads work", async ({
  page,
  request,
  consoleGuard,
}) => {
  // The locked listing and the wrong password are answered 403, as they should be.
  consoleGuard.allow(failedResource(403));
  const put = await request.put("/api/admin/folder-settings", {
    headers: adminHeaders(),
    data: { path: `${mount}/vault`, password: "open sesame" },
  });
  expect(put.status(), await put.text()).toBe(200);

  await signInWithKey(page);
  await page.goto(`/mount-explorer${mount}/vault`);
  const prompt = page.getByRole("region", { name: "This folder is protected" });
  await expect(prompt).toBeVisible();
  expect(await seriousViolations(page, "folder password prompt")).toEqual([]);
  await prompt.getByLabel("Path password").fill("wrong");
  await prompt.getByRole("button", { name: "Open folder" }).click();
  await expect(prompt.getByRole("alert")).toContainText("Incorrect folder password");
  await prompt.getByLabel("Path password").fill("open sesame");
  await prompt.getByRole("button", { name: "Open folder" }).click();
  await expect(entry(page, "v.txt")).toBeVisible();
  await expect(prompt).toHaveCount(0);

  await entry(page, "v.txt").click({ button: "right" });
  const downloading = page.waitForEvent("download");
  await page.getByRole("menuitem", { name: "Download" }).click();
  const download = await downloading;
  const saved = join(test.info().outputDir, "v.txt");
  await download.saveAs(saved);
  expect(readFileSync(saved, "utf8")).toBe("vault bytes");

  // Asked once: leaving and coming back (same tab) asks nothing.
  await page.goto(`/mount-explorer${mount}`);
  await expect(entry(page, "vault")).toBeVisible();
  await page.goto(`/mount-explorer${mount}/vault`);
  await expect(entry(page, "v.txt")).toBeVisible();
  await expect(page.getByRole("region", { name: "This folder is protected" })).toHaveCount(0);
});

test("on a phone, the readme and the settings dialog fit the screen", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await useAdminSession(page, token, `/mount-explorer${mount}/docs`);
  await expect(page.getByRole("region", { name: "About this folder" })).toContainText("Team documents");
  await page.getByRole("button", { name: "Folder settings" }).click();
  const dialog = page.getByRole("dialog", { name: "Folder settings" });
  await expect(dialog.getByLabel("Hide patterns")).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  const box = await dialog.boundingBox();
  expect(box && box.x >= 0 && box.x + box.width <= 390).toBe(true);
  expect(await seriousViolations(page, "folder settings on a phone")).toEqual([]);
});
