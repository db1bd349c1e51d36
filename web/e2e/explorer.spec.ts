import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { dropFolder, entry, explorerS3Env, listNames, readFile } from "./support/explorer";
import { pngImage } from "./support/explorer-images";
import {
  adminToken,
  createApiKey,
  createLocalMount,
  createMount,
  createS3Config,
  putFile,
  useAdminSession,
} from "./support/factories";
import { expect, failedResource, test } from "./support/fixtures";

/** The explorer against a LOCAL folder and the Swift S3 bucket. */
test.describe.configure({ mode: "serial" });

let token: string;
let localRoot: string;
const run = Date.now().toString(36);

test.beforeAll(async ({ request }) => {
  token = await adminToken(request);
  const { storage: local } = await createLocalMount(request, token, "/local", {
    name: "Local",
    storageName: `local-${run}`,
  });
  localRoot = local.root;
  await createLocalMount(request, token, "/a", { name: "A", storageName: `a-${run}` });
  const s3 = await createS3Config(request, token, `e2e-explorer-${run}`);
  if (s3)
    await createMount(request, token, {
      name: "S3",
      mount_path: "/s3",
      storage_type: "S3",
      storage_config_id: s3.id,
    });
  await putFile(request, token, "/local/docs/readme.md", "# Explorer notes\n\nSome **bold** text.\n");
  await putFile(request, token, "/local/docs/todo.txt", "first line\n");
  await putFile(request, token, "/local/pics/one.png", pngImage(40, 30, 1));
  await putFile(request, token, "/local/pics/two.png", pngImage(30, 40, 90));
  await putFile(request, token, "/local/pics/three.png", pngImage(50, 20, 170));
  await putFile(request, token, "/a/inside.txt", "inside a");
  if (s3) await putFile(request, token, "/s3/hello.txt", "hello from s3");
});

test("browses into a LOCAL and an S3 mount through breadcrumbs", async ({ page }) => {
  test.skip(!explorerS3Env(), "S3 test service not configured (source .tmp/services.env)");
  await useAdminSession(page, token, "/mount-explorer");
  await expect(entry(page, "local")).toBeVisible();
  await expect(entry(page, "s3")).toBeVisible();
  await entry(page, "local").getByRole("button", { name: "local" }).click();
  await expect(page).toHaveURL(/\/mount-explorer\/local$/);
  await entry(page, "docs").getByRole("button", { name: "docs" }).click();
  await expect(entry(page, "readme.md")).toBeVisible();
  await page.getByRole("navigation", { name: "Path" }).getByRole("link", { name: "All mounts" }).click();
  await entry(page, "s3").getByRole("button", { name: "s3" }).click();
  await expect(page).toHaveURL(/\/mount-explorer\/s3$/);
  await expect(entry(page, "hello.txt")).toBeVisible();
});

test("uploads a dropped folder with per-file progress, renames and deletes", async ({
  page,
  request,
  consoleGuard,
}) => {
  consoleGuard.allow(failedResource(409)); // renaming onto a taken name
  await useAdminSession(page, token, "/mount-explorer/local");
  await expect(entry(page, "docs")).toBeVisible();
  await dropFolder(page, page.getByTestId("drop-zone"), "album", {
    "a.txt": "alpha",
    "sub/b.txt": "bravo",
    "sub/deeper/c.txt": "charlie",
  });
  const panel = page.getByTestId("upload-panel");
  await expect(panel.locator('[data-status="done"]')).toHaveCount(3);
  await expect(panel.getByRole("progressbar", { name: "album/sub/deeper/c.txt" })).toHaveAttribute(
    "aria-valuenow",
    "100",
  );
  await expect(entry(page, "album")).toBeVisible();
  expect((await readFile(request, token, "/local/album/sub/deeper/c.txt")).toString()).toBe("charlie");

  // Rename through the context menu.
  await entry(page, "album").click({ button: "right" });
  await page.getByRole("menuitem", { name: "Rename" }).click();
  const rename = page.getByRole("dialog", { name: "Rename" });
  // A name with a slash is refused before anything is sent; a taken name by the server.
  await rename.getByLabel("Name").fill("al/bum");
  await rename.getByRole("button", { name: "Rename" }).click();
  await expect(rename.getByText("Enter a name without “/”")).toBeVisible();
  await rename.getByLabel("Name").fill("docs");
  await expect(rename.getByText("Enter a name without “/”")).toBeHidden();
  await rename.getByRole("button", { name: "Rename" }).click();
  await expect(rename.getByLabel("Name")).toHaveAttribute("aria-invalid", "true");
  await expect(rename).toBeVisible();
  await rename.getByLabel("Name").fill("album-2024");
  await rename.getByRole("button", { name: "Rename" }).click();
  await expect(entry(page, "album-2024")).toBeVisible();
  await expect(entry(page, "album")).toHaveCount(0);

  // Delete with confirmation.
  await entry(page, "album-2024").click({ button: "right" });
  await page.getByRole("menuitem", { name: "Delete" }).click();
  const confirm = page.getByRole("alertdialog");
  await expect(confirm).toContainText("Delete 1 item?");
  await expect(confirm).toContainText("/local/album-2024/");
  await confirm.getByRole("button", { name: "Delete" }).click();
  await expect(entry(page, "album-2024")).toHaveCount(0);
  expect(await listNames(request, token, "/local")).not.toContain("album-2024");
});

test("copies a file across storages and the task panel shows it finish", async ({ page, request }) => {
  test.skip(!explorerS3Env(), "S3 test service not configured (source .tmp/services.env)");
  await useAdminSession(page, token, "/mount-explorer/local/docs");
  await entry(page, "todo.txt").click({ button: "right" });
  await page.getByRole("menuitem", { name: "Copy to…" }).click();
  const picker = page.getByRole("dialog", { name: "Copy 1 item" });
  await picker.getByRole("button", { name: "All mounts" }).click();
  await picker.getByRole("button", { name: "s3", exact: true }).click();
  await expect(picker.getByTestId("picker-path")).toHaveText("/s3");
  await picker.getByRole("button", { name: "Copy here" }).click();
  const tasks = page.getByTestId("task-panel");
  await expect(tasks.locator('[data-task-type="copy"]').first()).toHaveAttribute(
    "data-task-status",
    "completed",
    { timeout: 20_000 },
  );
  await expect(tasks.locator('[data-task-type="copy"]').first()).toContainText("1/1");
  // The task names its file, where it went, and when it finished.
  await expect(tasks.getByTestId("task-details").first()).toContainText("todo.txt → /s3");
  await expect(tasks.getByTestId("task-details").first()).toContainText("Finished");
  expect((await readFile(request, token, "/s3/todo.txt")).toString()).toBe("first line\n");
  // Tasks come from the server: the panel shows the same after a reload.
  await page.reload();
  await page.getByRole("button", { name: "Tasks" }).click();
  await expect(
    page.getByTestId("task-panel").locator('[data-task-status="completed"]').first(),
  ).toBeVisible();
});

test("edits and saves a text file in the code editor", async ({ page, request }) => {
  await useAdminSession(page, token, "/mount-explorer/local/docs");
  await entry(page, "todo.txt").click({ button: "right" });
  await page.getByRole("menuitem", { name: "Edit" }).click();
  const dialog = page.getByRole("dialog", { name: "Edit file" });
  const editor = dialog.locator(".cm-content");
  await expect(editor).toContainText("first line");
  await editor.click();
  await page.keyboard.press("ControlOrMeta+End");
  await page.keyboard.type("second line ✓");
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog).toHaveCount(0);
  expect((await readFile(request, token, "/local/docs/todo.txt")).toString()).toBe(
    "first line\nsecond line ✓",
  );
});

test("previews images as a gallery, stepping through them with the arrow keys", async ({ page }) => {
  await useAdminSession(page, token, "/mount-explorer/local/pics");
  await page.getByRole("button", { name: "Gallery view" }).click();
  await expect(page.locator('[role="grid"][data-view="gallery"]')).toBeVisible();
  await expect(entry(page, "one.png").locator("img")).toBeVisible();
  await entry(page, "one.png").getByRole("button", { name: "one.png" }).click();
  await expect(page).toHaveURL(/\?preview=one\.png$/);
  const preview = page.getByRole("dialog", { name: "Preview of one.png" });
  await expect(preview.getByTestId("preview-image")).toBeVisible();
  await expect
    .poll(() => preview.getByTestId("preview-image").evaluate((img: HTMLImageElement) => img.naturalWidth))
    .toBe(40);
  await page.keyboard.press("ArrowRight");
  await expect(page.getByTestId("preview-name")).toContainText("three.png");
  await page.keyboard.press("ArrowRight");
  await expect(page.getByTestId("preview-name")).toContainText("two.png");
  await page.keyboard.press("ArrowLeft");
  await expect(page.getByTestId("preview-name")).toContainText("three.png");
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("preview-name")).toHaveCount(0);
  await expect(page).toHaveURL(/\/mount-explorer\/local\/pics$/);
  // The view is remembered for this user.
  await page.reload();
  await expect(page.locator('[role="grid"][data-view="gallery"]')).toBeVisible();
  await page.getByRole("button", { name: "List view" }).click();
});

test("a deep link previews a Markdown file rendered", async ({ page }) => {
  await useAdminSession(page, token, "/mount-explorer/local/docs?preview=readme.md");
  const md = page.getByRole("dialog", { name: "Preview of readme.md" });
  await expect(
    md.getByTestId("markdown-body").getByRole("heading", { name: "Explorer notes" }),
  ).toBeVisible();
  await expect(md.getByTestId("markdown-body").locator("strong")).toHaveText("bold");
});

test("creates a share with a view limit from a file and a visitor opens it", async ({
  page,
  browser,
  request,
}) => {
  await useAdminSession(page, token, "/mount-explorer/local/docs");
  await entry(page, "readme.md").click({ button: "right" });
  await page.getByRole("menuitem", { name: "Create share" }).click();
  const dialog = page.getByRole("dialog", { name: "Create share" });
  // The view limit follows the rule of every share form: a whole number, checked before sending.
  await dialog.getByLabel("Max views").fill("1.5");
  await dialog.getByRole("button", { name: "Create share" }).click();
  await expect(dialog.getByText("Max views must be a whole number")).toBeVisible();
  await dialog.getByLabel("Max views").fill("1");
  await dialog.getByRole("button", { name: "Create share" }).click();
  const link = await dialog.getByLabel("Share link").inputValue();
  expect(link).toMatch(/\/file\/[^/]+$/);
  await expect(dialog.locator('img[alt*="/file/"]')).toBeVisible();
  const slug = link.split("/").pop()!;
  const shares = await request.get(`/api/files?search=${slug}`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  const created = (await shares.json()).data.files.find((f: { slug: string }) => f.slug === slug);
  expect(created.max_views).toBe(1);
  const visitor = await browser.newContext();
  const visitorPage = await visitor.newPage();
  await visitorPage.goto(link);
  await expect(visitorPage.getByText("readme.md").first()).toBeVisible();
  await visitor.close();
});

test("the share dialog takes a link suffix by the rules of every share form and links there", async ({
  page,
}) => {
  await useAdminSession(page, token, "/mount-explorer/local/docs");
  await entry(page, "todo.txt").click({ button: "right" });
  await page.getByRole("menuitem", { name: "Create share" }).click();
  const dialog = page.getByRole("dialog", { name: "Create share" });
  await dialog.getByLabel("Link suffix").fill("admin");
  await dialog.getByRole("button", { name: "Create share" }).click();
  await expect(dialog.getByText("This word is reserved; choose another link suffix.")).toBeVisible();
  await dialog.getByLabel("Link suffix").fill(`todo-${run}`);
  await dialog.getByRole("button", { name: "Create share" }).click();
  await expect(dialog.getByLabel("Share link")).toHaveValue(new RegExp(`/file/todo-${run}$`));
});

test("collects three files from two folders in the basket and downloads one ZIP", async ({
  page,
  request,
}) => {
  await useAdminSession(page, token, "/mount-explorer/local/docs");
  await entry(page, "readme.md").click();
  await entry(page, "todo.txt").click({ modifiers: ["Shift"] });
  await expect(page.getByTestId("selection-bar")).toContainText("2 selected");
  await page.getByTestId("selection-bar").getByRole("button", { name: "Add to basket" }).click();
  await page.goto("/mount-explorer/local/pics");
  await entry(page, "two.png").click({ button: "right" });
  await page.getByRole("menuitem", { name: "Add to basket" }).click();
  await page.getByRole("button", { name: "File basket 3" }).click();
  const basket = page.getByTestId("basket-panel");
  const sizes = await Promise.all(
    ["/local/docs/readme.md", "/local/docs/todo.txt", "/local/pics/two.png"].map((p) =>
      readFile(request, token, p),
    ),
  );
  const total = sizes.reduce((n, b) => n + b.length, 0);
  await expect(basket.getByTestId("basket-totals")).toContainText("3 files");
  await expect(basket.getByTestId("basket-totals")).toContainText(total < 1024 ? `${total} B` : "KB");
  const downloading = page.waitForEvent("download");
  await basket.getByRole("button", { name: "Download ZIP" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^basket-\d{8}-\d{4}\.zip$/);
  const dir = mkdtempSync(join(tmpdir(), "clipshare-e2e-zip-"));
  const zipPath = join(dir, "basket.zip");
  await download.saveAs(zipPath);
  const out = join(dir, "out");
  mkdirSync(out);
  execFileSync("unzip", ["-q", zipPath, "-d", out]);
  const listing = execFileSync("unzip", ["-Z1", zipPath]).toString().trim().split("\n").sort();
  expect(listing.length).toBe(3);
  for (const [i, p] of ["docs/readme.md", "docs/todo.txt", "pics/two.png"].entries()) {
    const match = listing.find((l) => l.endsWith(p.split("/")[1]!));
    expect(match, `${p} in ${listing.join(", ")}`).toBeTruthy();
    expect(readFileSync(join(out, match!)).equals(sizes[i]!)).toBe(true);
  }
});

test("an API key with base path /a is redirected from the root to /a", async ({ page, request }) => {
  const key = await createApiKey(request, token, {
    name: `explorer-a-${run}`,
    permissions: 256 | 512,
    basic_path: "/a",
  });
  await page.goto("/");
  await page.evaluate((k) => localStorage.setItem("api_key", k), key.key);
  await page.goto("/mount-explorer/");
  await expect(page).toHaveURL(/\/mount-explorer\/a$/);
  await expect(entry(page, "inside.txt")).toBeVisible();
  await page.goto("/mount-explorer/local/docs");
  await expect(page).toHaveURL(/\/mount-explorer\/a$/);
});

test("a 10,000-entry directory scrolls with fewer than 200 rows in the DOM", async ({ page }) => {
  test.setTimeout(120_000);
  const big = join(localRoot, "big");
  mkdirSync(big, { recursive: true });
  for (let i = 0; i < 10_000; i++) writeFileSync(join(big, `file-${String(i).padStart(5, "0")}.txt`), "x");
  await useAdminSession(page, token, "/mount-explorer/local/big");
  await expect(entry(page, "file-00000.txt")).toBeVisible();
  const rows = page.locator('[role="row"][data-entry]');
  const scroller = page.getByTestId("entry-scroll");
  let max = 0;
  for (let step = 0; step < 80; step++) {
    await scroller.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
    await page.waitForTimeout(120);
    max = Math.max(max, await rows.count());
    const text = await page.getByTestId("entry-count").textContent();
    if (text?.trim() === "10000 items") break;
  }
  await expect(page.getByTestId("entry-count")).toHaveText("10000 items");
  // The last page made the list longer: scroll to its new end.
  await scroller.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
  await expect(entry(page, "file-09999.txt")).toBeVisible();
  max = Math.max(max, await rows.count());
  expect(max).toBeGreaterThan(5);
  expect(max).toBeLessThan(200);
});

for (const { width, height } of [
  { width: 390, height: 844 },
  { width: 820, height: 1180 },
])
  test.describe(`touch at ${width} px`, () => {
    test.use({ viewport: { width, height }, hasTouch: true, isMobile: true });

    test(`a 500 ms long-press opens the context menu inside a ${width} px screen, and nothing moves under the finger`, async ({
      page,
    }) => {
      await useAdminSession(page, token, "/mount-explorer/local/docs");
      const row = entry(page, "todo.txt");
      await expect(row).toBeVisible();
      const box = (await row.boundingBox())!;
      const at = {
        clientX: box.x + box.width - 30,
        clientY: box.y + box.height / 2,
        pointerType: "touch",
        isPrimary: true,
      };
      // Moving more than 10 px cancels the press.
      await row.dispatchEvent("pointerdown", at);
      await row.dispatchEvent("pointermove", { ...at, clientY: at.clientY + 15 });
      await page.waitForTimeout(700);
      await expect(page.getByTestId("context-menu")).toHaveCount(0);
      await row.dispatchEvent("pointerup", at);
      // A still press opens the menu after 500 ms.
      await row.dispatchEvent("pointerdown", at);
      await row.dispatchEvent("pointermove", { ...at, clientX: at.clientX + 4 });
      await page.waitForTimeout(650);
      await row.dispatchEvent("pointerup", at);
      const menu = page.getByTestId("context-menu");
      await expect(menu).toBeVisible();
      // The press selected its row, and nothing moved: the row is still under the finger.
      await expect(page.getByTestId("selection-bar")).toBeVisible();
      expect((await row.boundingBox())!.y).toBeCloseTo(box.y, 0);
      const m = (await menu.boundingBox())!;
      expect(m.width).toBeGreaterThanOrEqual(100);
      expect(m.width).toBeLessThanOrEqual(600);
      expect(m.x).toBeGreaterThanOrEqual(0);
      expect(m.x + m.width).toBeLessThanOrEqual(width);
      await expect(menu.getByRole("menuitem", { name: "Rename" })).toBeVisible();
      // Opened near the right edge, the menu still shows every label whole ("Get direct link").
      for (const label of await menu.getByRole("menuitem").locator("span").all())
        expect(await label.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
      await page.keyboard.press("Escape");
      await expect(menu).toHaveCount(0);
    });
  });

test.describe("phone selection", () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test("the selection bar leaves the toolbar uncovered and reaches every action, the rarer ones through More", async ({
    page,
  }) => {
    await useAdminSession(page, token, "/mount-explorer/local/docs");
    const todo = entry(page, "todo.txt");
    const box = (await todo.boundingBox())!;
    await page.touchscreen.tap(box.x + box.width - 20, box.y + box.height / 2);
    const bar = page.getByTestId("selection-bar");
    await expect(bar).toContainText("1 selected");
    const toolbar = (await page.getByRole("toolbar", { name: "Explorer actions" }).boundingBox())!;
    const b = (await bar.boundingBox())!;
    expect(b.y).toBeGreaterThanOrEqual(toolbar.y + toolbar.height);
    expect(b.x + b.width).toBeLessThanOrEqual(390);
    await expect(page.getByRole("button", { name: "Upload files" })).toBeVisible();
    for (const name of ["Add to basket", "Share as one link", "Delete", "Clear selection"])
      await expect(bar.getByRole("button", { name })).toBeVisible();
    await bar.getByRole("button", { name: "More actions" }).tap();
    const menu = page.getByRole("menu", { name: "More actions" });
    await expect(menu.getByRole("menuitem")).toHaveText(["Copy to…", "Move to…", "Select all"]);
    await menu.getByRole("menuitem", { name: "Select all" }).tap();
    await expect(bar).toContainText("2 selected");
    await expect(entry(page, "readme.md")).toHaveAttribute("aria-selected", "true");
    await bar.getByRole("button", { name: "Clear selection" }).tap();
    await expect(bar).toHaveCount(0);
  });

  test("while a selection is open, a tap on another entry adds it instead of opening it", async ({
    page,
  }) => {
    await useAdminSession(page, token, "/mount-explorer/local/docs");
    const readme = entry(page, "readme.md");
    await readme.locator("[data-name]").tap();
    await expect(page.getByRole("dialog")).toBeVisible();
    await page.keyboard.press("Escape");
    // A tap beside the name selects; from then on taps add and remove.
    const todo = entry(page, "todo.txt");
    const box = (await todo.boundingBox())!;
    await page.touchscreen.tap(box.x + box.width - 20, box.y + box.height / 2);
    await expect(todo).toHaveAttribute("aria-selected", "true");
    await readme.locator("[data-name]").tap();
    await expect(readme).toHaveAttribute("aria-selected", "true");
    await expect(todo).toHaveAttribute("aria-selected", "true");
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await todo.locator("[data-name]").tap();
    await expect(todo).toHaveAttribute("aria-selected", "false");
    await expect(readme).toHaveAttribute("aria-selected", "true");
  });
});

test("Upload folder opens a folder picker and keeps the folder structure", async ({ page, request }) => {
  const picked = mkdtempSync(join(tmpdir(), "clipshare-picked-"));
  mkdirSync(join(picked, "album", "2026"), { recursive: true });
  writeFileSync(join(picked, "album", "cover.txt"), "cover");
  writeFileSync(join(picked, "album", "2026", "june.txt"), "june");
  await useAdminSession(page, token, "/mount-explorer/a");
  const chooser = page.waitForEvent("filechooser");
  await page.getByRole("button", { name: "Upload folder" }).click();
  await (await chooser).setFiles(join(picked, "album"));
  const uploads = page.getByTestId("upload-panel");
  await expect(uploads.locator('[data-status="done"]')).toHaveCount(2, { timeout: 15_000 });
  expect(await listNames(request, token, "/a/album/2026")).toEqual(["june.txt"]);
  expect(await listNames(request, token, "/a/album")).toEqual(expect.arrayContaining(["2026", "cover.txt"]));
  expect((await readFile(request, token, "/a/album/2026/june.txt")).toString()).toBe("june");
});

test("Shift+F10 puts focus into the menu, and Escape gives it back to the entry", async ({ page }) => {
  await useAdminSession(page, token, "/mount-explorer/local/docs");
  const name = entry(page, "todo.txt").locator("[data-name]");
  await name.focus();
  await page.keyboard.press("Shift+F10");
  const menu = page.getByTestId("context-menu");
  await expect(menu).toBeVisible();
  expect(await menu.evaluate((el) => el.contains(document.activeElement))).toBe(true);
  await page.keyboard.press("Escape");
  await expect(menu).toHaveCount(0);
  await expect(name).toBeFocused();
});

test("closing a dialog returns focus to the entry whose menu opened it", async ({ page }) => {
  await useAdminSession(page, token, "/mount-explorer/local/docs");
  const name = entry(page, "todo.txt").locator("[data-name]");
  const menu = page.getByTestId("context-menu");
  await name.focus();
  await page.keyboard.press("Shift+F10");
  await menu.getByRole("menuitem", { name: "Rename" }).click();
  await expect(page.getByRole("dialog")).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(name).toBeFocused();
});

for (const { width, height } of [
  { width: 1366, height: 900 },
  { width: 820, height: 1180 },
  { width: 390, height: 844 },
])
  test(`at ${width} px a long path and the search scopes are shown whole`, async ({ page, request }) => {
    await page.setViewportSize({ width, height });
    await putFile(request, token, "/local/quarterly-reports-2026/summary.txt", "q");
    await useAdminSession(page, token, "/mount-explorer/local/quarterly-reports-2026");
    await expect(entry(page, "summary.txt")).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    const crumbs = page.getByRole("navigation", { name: "Path" }).getByRole("link");
    await expect(crumbs).toHaveCount(3);
    for (const crumb of await crumbs.all())
      expect(await crumb.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
    // A select's label is cut without any overflow to measure: compare its text with its box.
    for (const select of await page.getByRole("search").getByRole("combobox").all()) {
      if ((await select.evaluate((el) => el.tagName)) !== "SELECT") continue;
      const fits = await select.evaluate((el: HTMLSelectElement) => {
        const style = getComputedStyle(el);
        const ctx = document.createElement("canvas").getContext("2d")!;
        ctx.font = style.font;
        const text = ctx.measureText(el.selectedOptions[0]?.text ?? "").width;
        return text + parseFloat(style.paddingLeft) + parseFloat(style.paddingRight) <= el.clientWidth + 1;
      });
      expect(fits).toBe(true);
    }
  });

test("the explorer speaks both languages", async ({ page }) => {
  await useAdminSession(page, token, "/mount-explorer/local");
  await expect(page.getByRole("button", { name: "New folder" })).toBeVisible();
  await page.evaluate(() => localStorage.setItem("language", "zh"));
  await page.reload();
  await expect(page.getByRole("button", { name: "新建文件夹" })).toBeVisible();
  await expect(page.getByRole("button", { name: "上传文件夹" })).toBeVisible();
  await entry(page, "docs").click({ button: "right" });
  await expect(page.getByRole("menuitem", { name: "重命名" })).toBeVisible();
  await page.keyboard.press("Escape");
  await page.evaluate(() => localStorage.setItem("language", "en"));
});

test("admin mount management validates, creates, deactivates and deletes a mount", async ({
  page,
  consoleGuard,
}) => {
  // The storage is mounted whole at /local: the first save is answered 409 (overlap) on purpose.
  consoleGuard.allow(failedResource(409));
  await useAdminSession(page, token, "/admin/mount-management");
  await page.getByRole("button", { name: "New mount" }).click();
  const dialog = page.getByRole("dialog", { name: "New mount" });
  await dialog.getByLabel("Name").fill("Temp");
  await dialog.getByLabel("Mount path").fill("/api");
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog).toContainText("Mount path /api is reserved by the system");
  // A new mount starts on the default storage, with its type named for people.
  await expect(dialog.getByLabel("Storage config").locator("option:checked")).toHaveText("Local storage");
  await expect(dialog.getByLabel("Storage type").locator("option:checked")).toHaveText("Local disk");
  await dialog.getByLabel("Mount path").fill("/temp-mount");
  await dialog.getByLabel("Storage config").selectOption({ label: `local-${run}` });
  await dialog.getByLabel("Folder inside the storage").fill("temp-mount");
  await dialog.getByLabel("Cache TTL").fill("90000");
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog).toContainText("Cache TTL must be an integer between 0 and 86400 seconds");
  await dialog.getByLabel("Cache TTL").fill("60");
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog).toContainText("Another mount already shows this folder or one inside it");
  await dialog.getByText("Show these files at both mounts").click();
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog).toHaveCount(0);
  const row = page.locator('tr[data-row="/temp-mount"]');
  await expect(row).toContainText("Active");
  await row.getByRole("button", { name: "Deactivate Temp" }).click();
  await expect(row).toContainText("Inactive");
  await row.getByRole("button", { name: "Clear the cache of Temp" }).click();
  await expect(page.getByText(/Cache cleared/)).toBeVisible();
  await row.getByRole("button", { name: "Delete Temp" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Delete" }).click();
  await expect(row).toHaveCount(0);
});
