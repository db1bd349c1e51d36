/**
 * Small things a new user meets in the first minutes, each pinned by what the
 * person sees: nothing cut off that names them or the list they page through.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { adminToken, createFileShare, createPaste, useAdminSession } from "./support/factories";
import { expect, failedResource, test, unique } from "./support/fixtures";
import { fillEditor } from "./support/pastes";

const notClipped = (el: Element) => el.scrollWidth <= el.clientWidth + 1;

test.describe("first minutes", () => {
  for (const width of [1366, 820, 390]) {
    test(`"Signed in as Administrator" is shown whole at ${width} px`, async ({ page, request }) => {
      await page.setViewportSize({ width, height: 800 });
      await useAdminSession(page, await adminToken(request), "/admin");
      const line = page.getByText("Signed in as Administrator");
      await expect(line).toBeVisible();
      expect(await line.evaluate(notClipped)).toBe(true);
    });
  }

  test("the key dialog says what Role and Guest key do", async ({ page, request }) => {
    await useAdminSession(page, await adminToken(request), "/admin/key-management");
    await page.getByRole("button", { name: "Create key" }).click();
    const dialog = page.getByRole("dialog", { name: "Create API key" });
    await expect(
      dialog.getByText("What the key may do is set by its permissions and base path.", { exact: false }),
    ).toBeVisible();
    await expect(dialog.getByText("it grants and removes no permission", { exact: false })).toBeVisible();
  });
});

test.describe("first minutes: links stay in reach", () => {
  test("Home lists the recent pastes of this browser, newest first, with Copy and QR; encrypted ones are not kept", async ({
    page,
    request,
  }) => {
    await useAdminSession(page, await adminToken(request), "/");
    const first = unique("recent1");
    const second = unique("recent2");
    for (const slug of [first, second]) {
      await fillEditor(page, `text of ${slug}`);
      await page.getByLabel("Custom link suffix").fill(slug);
      await page.getByRole("button", { name: "Create share link" }).click();
      await expect(page.getByRole("region", { name: "Share link created" })).toContainText(slug);
    }
    await fillEditor(page, "sealed");
    await page.getByRole("checkbox", { name: "Encrypt end to end" }).check();
    await page.getByRole("button", { name: "Create share link" }).click();
    await expect(page.getByTestId("e2e-link-note")).toBeVisible();

    // Still there after the result card is gone and the page is opened again.
    await page.reload();
    const list = page.getByRole("list", { name: "Recent pastes" });
    const items = list.getByRole("listitem");
    await expect(items).toHaveCount(2);
    await expect(items.nth(0)).toContainText(`/paste/${second}`);
    await expect(items.nth(1)).toContainText(`/paste/${first}`);
    await expect(items.nth(0).getByRole("button", { name: `Copy link of /paste/${second}` })).toBeVisible();
    await items
      .nth(0)
      .getByRole("button", { name: `QR code for /paste/${second}` })
      .click();
    await expect(page.getByRole("dialog", { name: "QR code" })).toContainText(`/paste/${second}`);
    await page.keyboard.press("Escape");

    await page.getByRole("button", { name: "Clear list" }).click();
    await expect(list).toHaveCount(0);
  });

  test("the Home editor says how to leave it with the keyboard, and Esc then Tab does", async ({ page }) => {
    await page.goto("/");
    await expect(page.getByTestId("editor-tab-hint")).toHaveText(
      "Tab indents. To leave the editor with the keyboard, press Esc, then Tab.",
    );
    await fillEditor(page, "line");
    await page.keyboard.press("Tab");
    const inEditor = () => page.evaluate(() => Boolean(document.activeElement?.closest(".cm-editor")));
    expect(await inEditor()).toBe(true);
    await page.keyboard.press("Escape");
    await page.keyboard.press("Tab");
    expect(await inEditor()).toBe(false);
  });
});

test.describe("first minutes: uploads", () => {
  test("the same file added twice is refused, not uploaded twice", async ({ page, request }) => {
    await useAdminSession(page, await adminToken(request), "/upload");
    // A file on disk: picked twice, it is the same file (same name, size and modification time).
    const file = join(mkdtempSync(join(tmpdir(), "clipshare-twice-")), `${unique("twice")}.txt`);
    writeFileSync(file, "same bytes");
    const name = basename(file);
    const input = page.locator('input[type="file"]');
    await input.setInputFiles(file);
    await input.setInputFiles(file);
    await expect(page.getByText(`"${name}" is already in the list.`)).toBeVisible();
    await expect(page.getByRole("list", { name: "Files to upload" }).getByRole("listitem")).toHaveCount(1);
    await expect(page.getByRole("button", { name: "Upload (1)" })).toBeVisible();
  });

  test("on a phone the share options come before the Upload button", async ({ page, request }) => {
    await page.setViewportSize({ width: 390, height: 800 });
    await useAdminSession(page, await adminToken(request), "/upload");
    await page.locator('input[type="file"]').setInputFiles({
      name: `${unique("phone")}.txt`,
      mimeType: "text/plain",
      buffer: Buffer.from("x"),
    });
    const upload = await page.getByRole("button", { name: "Upload (1)" }).boundingBox();
    const options = await page.getByLabel("Remark").boundingBox();
    expect(options!.y).toBeLessThan(upload!.y);
  });
});

test.describe("first minutes: smaller defects", () => {
  test('the browser tab follows the paste\'s "page title"', async ({ page, request }) => {
    const token = await adminToken(request);
    const paste = await createPaste(request, `Bearer ${token}`, {
      content: "notes",
      remark: "Release notes",
    });
    await page.goto(`/paste/${paste.slug}`);
    await expect(page.getByRole("heading", { level: 1, name: "Release notes" })).toBeVisible();
    await expect(page).toHaveTitle("Release notes - ClipShare");
  });

  test('"already taken" goes once the link suffix is edited', async ({ page, request, consoleGuard }) => {
    consoleGuard.allow(failedResource(409));
    const token = await adminToken(request);
    const taken = unique("taken");
    await createPaste(request, `Bearer ${token}`, { content: "first", slug: taken });
    await useAdminSession(page, token, "/");
    await fillEditor(page, "second");
    const suffix = page.getByLabel("Custom link suffix");
    await suffix.fill(taken);
    await page.getByRole("button", { name: "Create share link" }).click();
    const message = page.getByText("Link suffix already taken, try another.");
    await expect(message).toBeVisible();
    await suffix.fill(`${taken}-2`);
    await expect(message).toHaveCount(0);
  });

  test("the file page wraps a MIME type after its slash, never inside the subtype", async ({
    page,
    request,
  }) => {
    const token = await adminToken(request);
    const file = await createFileShare(request, token, `${unique("mime")}.bin`, "12345", {
      mimetype: "application/octet-stream",
    });
    for (const width of [1366, 820, 390]) {
      await page.setViewportSize({ width, height: 800 });
      await page.goto(`/file/${file.slug}`);
      const type = page.locator("dd", { hasText: "application/octet-stream" });
      await expect(type).toBeVisible();
      // The lines "octet-stream" is laid out on: one, never "octet-" and "stream".
      const lines = await type.evaluate((el) => {
        const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          const at = node.textContent?.indexOf("octet-stream") ?? -1;
          if (at < 0) continue;
          const range = document.createRange();
          range.setStart(node, at);
          range.setEnd(node, at + "octet-stream".length);
          return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
        }
        return 0;
      });
      expect(lines).toBe(1);
    }
  });
});

test("on a phone the admin menu strip shows there is more to scroll to", async ({ page, request }) => {
  await page.setViewportSize({ width: 390, height: 800 });
  await useAdminSession(page, await adminToken(request), "/admin/dashboard");
  const nav = page.getByRole("navigation", { name: "Panel sections" });
  await expect(page.getByTestId("nav-more-end")).toBeVisible();
  await expect(page.getByTestId("nav-more-start")).toHaveCount(0);
  await nav.evaluate((el) => {
    el.scrollLeft = el.scrollWidth;
  });
  await expect(page.getByTestId("nav-more-end")).toHaveCount(0);
  await expect(page.getByTestId("nav-more-start")).toBeVisible();
});
