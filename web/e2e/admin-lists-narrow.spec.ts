import type { Locator, Page } from "@playwright/test";
import {
  adminToken,
  createApiKey,
  createFileShare,
  createLocalStorage,
  createMount,
  createPaste,
  useAdminSession,
} from "./support/factories";
import { ADMIN_USERNAME, expect, test, unique } from "./support/fixtures";

/**
 * Text, file and key management on a tablet (820 px) and a phone (390 px): every
 * row shows all its details and every row action can be seen and used
 * without scrolling sideways, neither the page nor a box inside it.
 */

/** The row of a list, be it a table row or a card, whichever the width shows. */
const listRow = (page: Page, text: string) => page.locator(":is(tr, li):visible").filter({ hasText: text });

const sidewaysOverflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

/** Scrolls the page (only the page, only vertically) until `target` is in the middle. */
async function scrollPageTo(target: Locator) {
  const box = await target.boundingBox();
  expect(box, "the element is rendered").not.toBeNull();
  await target.page().evaluate((y) => window.scrollBy(0, y - window.innerHeight / 2), box!.y);
}

/** Each of these buttons is fully on screen where it stands, then does what it says. */
async function expectReachable(page: Page, names: string[]) {
  for (const name of names) {
    const button = page.getByRole("button", { name, exact: true });
    await expect(button).toBeVisible();
    await scrollPageTo(button);
    await expect(button, `${name} is not cut off`).toBeInViewport({ ratio: 1 });
  }
}

for (const viewport of [
  { width: 820, height: 1180 },
  { width: 390, height: 844 },
]) {
  test.describe(`admin lists at ${viewport.width} px`, () => {
    test.use({ viewport, hasTouch: true });

    test("text management: every row action is reachable, nothing scrolls sideways", async ({
      page,
      request,
    }) => {
      const token = await adminToken(request);
      const tag = unique("narrow").replace(/[^a-z0-9]/gi, "");
      const paste = await createPaste(request, `Bearer ${token}`, {
        content: `${"a long line of text without an end ".repeat(20)} ${tag}`,
        remark: `${tag} ${"remark ".repeat(12)}`,
        password: "pw",
        maxViews: 3,
      });

      await useAdminSession(page, token, "/admin/text-management");
      await page.getByLabel("Search pastes").fill(tag);
      const row = listRow(page, paste.slug);
      await expect(row).toBeVisible();
      await expect(row).toContainText("0 / 3");
      await expect(row).toContainText(ADMIN_USERNAME);
      expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);

      await expectReachable(page, [`Preview ${paste.slug}`, `Edit ${paste.slug}`, `Delete ${paste.slug}`]);
      await page.getByRole("button", { name: `Edit ${paste.slug}`, exact: true }).click();
      await expect(page.getByRole("dialog", { name: `Edit paste ${paste.slug}` })).toBeVisible();
      await page.keyboard.press("Escape");

      await page.getByRole("checkbox", { name: `Select ${paste.slug}` }).click();
      await page.getByRole("button", { name: "Delete selected (1)" }).click();
      const confirm = page.getByRole("alertdialog", { name: `Delete the paste "${paste.slug}"?` });
      await confirm.getByRole("button", { name: "Delete" }).click();
      await expect(page.getByText("No pastes match.")).toBeVisible();
      expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
    });

    test("file management: every row action is reachable, nothing scrolls sideways", async ({
      page,
      request,
    }) => {
      const token = await adminToken(request);
      const tag = unique("narrowfm").replace(/[^a-z0-9]/gi, "");
      const name = `${tag}-a-rather-long-file-name-that-needs-room-${"x".repeat(40)}.txt`;
      await createFileShare(request, token, name, "narrow screen contents\n");

      await useAdminSession(page, token, "/admin/file-management");
      await page.getByLabel("Search files").fill(tag);
      const row = listRow(page, name);
      await expect(row).toBeVisible();
      await expect(row).toContainText("0 / ∞");
      expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);

      await expectReachable(page, [
        `Preview ${name}`,
        `Copy link of ${name}`,
        `Edit ${name}`,
        `Delete ${name}`,
      ]);
      await page.getByRole("button", { name: `Delete ${name}`, exact: true }).click();
      const confirm = page.getByRole("alertdialog", { name: "Delete this share?" });
      await confirm.getByRole("button", { name: "Delete" }).click();
      await expect(page.getByText("No files match.")).toBeVisible();
      expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
    });

    test("key management: every row action is reachable, nothing scrolls sideways", async ({
      page,
      request,
    }) => {
      const token = await adminToken(request);
      const name = unique("narrow-key");
      await createApiKey(request, token, { name, permissions: 1 });

      await useAdminSession(page, token, "/admin/key-management");
      const row = listRow(page, name);
      await expect(row).toBeVisible();
      await expect(row).toContainText("Text sharing");
      expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);

      await expectReachable(page, [`Edit key ${name}`, `Delete key ${name}`]);
      await page.getByRole("button", { name: `Delete key ${name}`, exact: true }).click();
      await page.getByRole("alertdialog").getByRole("button", { name: "Delete" }).click();
      await expect(listRow(page, name)).toHaveCount(0);
      expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
    });

    test("mount management and indexes: every row action is reachable, a long mount path wraps", async ({
      page,
      request,
    }) => {
      const token = await adminToken(request);
      const name = unique("narrowmount").replace(/[^a-z0-9]/gi, "");
      const config = await createLocalStorage(request, token, name);
      const path = `/${name}-${"deep".repeat(8)}`;
      await createMount(request, token, {
        name,
        mount_path: path,
        storage_type: "LOCAL",
        storage_config_id: config.id,
      });

      await useAdminSession(page, token, "/admin/mount-management");
      await expect(listRow(page, path)).toBeVisible();
      expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
      await expectReachable(page, [
        `Clear the cache of ${name}`,
        `Access log of ${name}`,
        `Deactivate ${name}`,
        `Edit ${name}`,
        `Delete ${name}`,
      ]);
      await expect(page.getByRole("link", { name: `Browse ${name}` })).toHaveAttribute(
        "href",
        /mount-explorer/,
      );

      await page.goto("/admin/index-management");
      const card = page.getByRole("listitem", { name });
      await expect(card).toContainText(path);
      expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
      const box = (await card.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
    });
  });
}
