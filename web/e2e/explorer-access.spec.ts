import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Permission } from "@clipshare/shared";
import type { Page } from "@playwright/test";
import { seriousViolations } from "./support/axe";
import { dropFolder, entry, listNames } from "./support/explorer";
import {
  adminToken,
  createApiKey,
  createLocalMount,
  putFile,
  signInWithKeyViaForm,
  useAdminSession,
} from "./support/factories";
import { expect, test, unique } from "./support/fixtures";

/**
 * The explorer's rows as an ARIA grid (selection and keyboard), and its
 * actions shown by the signed-in key's permission bits, against a LOCAL mount.
 */
test.describe.configure({ mode: "serial" });
test.use({ viewport: { width: 1366, height: 900 } });

let token: string;
let root: string;
const run = Date.now().toString(36);
const mount = `/acl-${run}`;

test.beforeAll(async ({ request }) => {
  token = await adminToken(request);
  const { storage: config } = await createLocalMount(request, token, mount, {
    name: `acl-${run}`,
    storageName: `acl-${run}`,
  });
  root = config.root;
  for (const name of ["a.txt", "b.txt", "c.txt", "d.txt"])
    await putFile(request, token, `${mount}/${name}`, name);
});

async function signInWithKey(page: Page, permissions: number): Promise<void> {
  const key = await createApiKey(page.request, token, { name: unique("acl"), permissions });
  await signInWithKeyViaForm(page, key.key);
  await expect(page.getByRole("heading", { name: "User panel" })).toBeVisible();
}

const focusedEntry = (page: Page) =>
  page.evaluate(() => document.activeElement?.closest("[data-entry]")?.getAttribute("data-entry") ?? null);

test("rows are grid rows whose one control is the name; arrows, shift, space and ctrl+A select", async ({
  page,
}) => {
  await useAdminSession(page, token, `/mount-explorer${mount}`);
  const grid = page.getByRole("grid", { name: `Entries of ${mount}` });
  await expect(grid).toBeVisible();
  await expect(grid.getByRole("columnheader")).toHaveCount(3);
  const row = entry(page, "a.txt");
  await expect(row).toHaveAttribute("role", "row");
  await expect(row.getByRole("button")).toHaveCount(1);
  // One tab stop for the whole grid.
  await expect(grid.locator('[data-name][tabindex="0"]')).toHaveCount(1);

  await row.click({ position: { x: 600, y: 20 } });
  await expect(row).toHaveAttribute("aria-selected", "true");
  expect(await focusedEntry(page)).toBe("a.txt");
  await page.keyboard.press("ArrowDown");
  expect(await focusedEntry(page)).toBe("b.txt");
  await expect(entry(page, "b.txt")).toHaveAttribute("aria-selected", "true");
  await expect(row).toHaveAttribute("aria-selected", "false");
  await page.keyboard.press("Shift+ArrowDown");
  await expect(page.getByTestId("selection-bar")).toContainText("2 selected");
  await page.keyboard.press("Control+ArrowDown");
  expect(await focusedEntry(page)).toBe("d.txt");
  await page.keyboard.press("Space");
  await expect(page.getByTestId("selection-bar")).toContainText("3 selected");
  await expect(entry(page, "d.txt")).toHaveAttribute("aria-selected", "true");
  await page.keyboard.press("Home");
  expect(await focusedEntry(page)).toBe("a.txt");
  await page.keyboard.press("Control+a");
  await expect(page.getByTestId("selection-bar")).toContainText("4 selected");
  // The menu key opens the focused entry's menu; Enter on the name opens the file.
  await page.keyboard.press("Shift+F10");
  await expect(page.getByRole("menu", { name: "a.txt" })).toBeVisible();
  await page.keyboard.press("Escape");
  await entry(page, "a.txt").getByRole("button", { name: "a.txt" }).focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\?preview=a\.txt$/);
  await expect(page.getByRole("dialog", { name: "Preview of a.txt" })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog")).toHaveCount(0);

  // The grid view: tiles are the grid's cells and carry the selection.
  await page.getByRole("button", { name: "Grid view" }).click();
  const tile = entry(page, "c.txt");
  await expect(tile).toHaveAttribute("role", "gridcell");
  await tile.click({ position: { x: 10, y: 10 } });
  await expect(tile).toHaveAttribute("aria-selected", "true");
  await page.keyboard.press("ArrowLeft");
  expect(await focusedEntry(page)).toBe("b.txt");
  await page.getByRole("button", { name: "List view" }).click();
});

test("keys reach entries outside the rendered window of a long list", async ({ page }) => {
  const long = join(root, "long");
  mkdirSync(long, { recursive: true });
  for (let i = 0; i < 400; i++) writeFileSync(join(long, `n-${String(i).padStart(3, "0")}.txt`), "x");
  await useAdminSession(page, token, `/mount-explorer${mount}/long`);
  await expect(page.getByTestId("entry-count")).toHaveText("400 items");
  const rendered = await page.locator('[role="row"][data-entry]').count();
  expect(rendered).toBeLessThan(100);
  await entry(page, "n-000.txt").click({ position: { x: 600, y: 20 } });
  await page.keyboard.press("End");
  await expect.poll(() => focusedEntry(page)).toBe("n-399.txt");
  await expect(entry(page, "n-399.txt")).toBeInViewport();
  await expect(entry(page, "n-399.txt")).toHaveAttribute("aria-selected", "true");
  await page.keyboard.press("Home");
  await expect.poll(() => focusedEntry(page)).toBe("n-000.txt");
  await expect(entry(page, "n-000.txt")).toBeInViewport();
});

for (const { viewport, theme } of [
  { viewport: { width: 820, height: 1180 }, theme: "light" },
  { viewport: { width: 390, height: 844 }, theme: "dark" },
]) {
  test(`axe: no control inside another, readable selected rows, in every view at ${viewport.width} px (${theme})`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport);
    await page.addInitScript((mode) => localStorage.setItem("themeMode", mode), theme);
    await useAdminSession(page, token, `/mount-explorer${mount}`);
    await expect(entry(page, "a.txt")).toBeVisible();
    await entry(page, "a.txt").click({ position: { x: 200, y: 20 } });
    const findings = await seriousViolations(page, "list");
    for (const view of ["Grid view", "Gallery view"]) {
      await page.getByRole("button", { name: view }).click();
      await expect(entry(page, "a.txt")).toBeVisible();
      findings.push(...(await seriousViolations(page, view)));
    }
    await page.getByRole("button", { name: "List view" }).click();
    expect(findings).toEqual([]);
  });
}

test("search results do not show the folder's item count", async ({ page }) => {
  await useAdminSession(page, token, `/mount-explorer${mount}`);
  await expect(page.getByTestId("entry-count")).toHaveText("4 items");
  await page.getByRole("combobox", { name: "Search", exact: true }).fill("b.tx");
  await page.getByRole("button", { name: "Search", exact: true }).click();
  const results = page.getByRole("region", { name: "Search results" });
  await expect(results.getByRole("link", { name: "b.txt" })).toBeVisible();
  await expect(results).toContainText(`${mount}/b.txt`);
  await expect(page.getByTestId("entry-count")).toHaveCount(0);
});

test("a key that may only view sees no action that changes the mount", async ({ page, consoleGuard }) => {
  await signInWithKey(page, Permission.MOUNT_VIEW);
  await page.goto(`/mount-explorer${mount}`);
  await expect(entry(page, "a.txt")).toBeVisible();
  const toolbar = page.getByRole("toolbar", { name: "Explorer actions" });
  await expect(toolbar.getByRole("button", { name: "Refresh" })).toBeVisible();
  for (const name of ["New folder", "Upload files", "Upload folder"])
    await expect(toolbar.getByRole("button", { name, exact: true })).toHaveCount(0);

  await entry(page, "a.txt").click({ button: "right" });
  const menu = page.getByRole("menu", { name: "a.txt" });
  // Sharing takes the file-share bit as well, which this key lacks.
  await expect(menu.getByRole("menuitem")).toHaveText([
    "Preview",
    "Download",
    "Get direct link",
    "Details",
    "Add to basket",
  ]);
  await page.keyboard.press("Escape");
  await page.getByTestId("entry-scroll").click({ button: "right", position: { x: 400, y: 400 } });
  await expect(page.getByRole("menu").getByRole("menuitem")).toHaveText([
    "Refresh",
    "Details of this folder",
  ]);
  await page.keyboard.press("Escape");

  await entry(page, "a.txt").click({ position: { x: 600, y: 20 } });
  const bar = page.getByTestId("selection-bar");
  await expect(bar.getByRole("button", { name: "Add to basket" })).toBeVisible();
  for (const name of ["Copy to…", "Move to…", "Delete"])
    await expect(bar.getByRole("button", { name })).toHaveCount(0);

  // The keys do nothing the key may not do.
  await page.keyboard.press("Delete");
  await page.keyboard.press("F2");
  await expect(page.getByRole("alertdialog")).toHaveCount(0);
  await expect(page.getByRole("dialog")).toHaveCount(0);

  // A drop uploads nothing and says why, without asking the server.
  const uploads: string[] = [];
  page.on("request", (r) => {
    if (r.method() !== "GET" && r.url().includes("/api/fs/")) uploads.push(r.url());
  });
  await dropFolder(page, page.getByTestId("drop-zone"), "album", { "x.txt": "x" });
  await expect(page.getByText("This API key may not upload: nothing was uploaded.")).toBeVisible();
  await expect(page.getByTestId("upload-panel")).toHaveCount(0);
  expect(uploads).toEqual([]);
  expect(await listNames(page.request, token, mount)).not.toContain("album");
  expect(consoleGuard.unexpected()).toEqual([]);
});

test("a key with rename, delete and file-share bits gets those actions, and Delete deletes", async ({
  page,
}) => {
  await signInWithKey(
    page,
    Permission.MOUNT_VIEW | Permission.MOUNT_RENAME | Permission.MOUNT_DELETE | Permission.FILE_SHARE,
  );
  await page.goto(`/mount-explorer${mount}`);
  await entry(page, "d.txt").click({ button: "right" });
  const items = page.getByRole("menu", { name: "d.txt" }).getByRole("menuitem");
  await expect(items).toHaveText([
    "Preview",
    "Download",
    "Get direct link",
    "Create share",
    "Details",
    "Rename",
    "Add to basket",
    "Move to…",
    "Delete",
  ]);
  await page.keyboard.press("Escape");
  await entry(page, "d.txt").click({ position: { x: 600, y: 20 } });
  await page.keyboard.press("Delete");
  const confirm = page.getByRole("alertdialog");
  await expect(confirm).toContainText("Delete 1 item?");
  await confirm.getByRole("button", { name: "Delete" }).click();
  await expect(entry(page, "d.txt")).toHaveCount(0);
  expect(await listNames(page.request, token, mount)).not.toContain("d.txt");
});
