/**
 * Regression checks for the polish pass, each at the viewport where the defect
 * was seen: reserved uploads in file management, Raw notices, the share link
 * on a phone, sign-in returning to the draft, the file page's badge and
 * last-view notice, password toggles, the link-suffix prefix, the Settings
 * header, one not-found card, and no server paths shown to visitors.
 */

import {
  adminToken,
  bearer,
  createFileShare,
  createLocalMount,
  createPaste,
  putFile,
  useAdminSession,
} from "./support/factories";
import { expect, failedResource, test, unique } from "./support/fixtures";
import { fillEditor, visitor } from "./support/pastes";

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1366, height: 900 };

test.describe("reserved uploads", () => {
  test("an unfinished upload shows as Uploading in file management and Delete releases its suffix", async ({
    page,
    request,
  }) => {
    await page.setViewportSize(DESKTOP);
    const token = await adminToken(request);
    const auth = { Authorization: `Bearer ${token}` };
    const slug = unique("held").replace(/[^a-z0-9-]/gi, "");
    const presign = await request.post("/api/s3/presign", {
      headers: auth,
      data: { filename: `${slug}.txt`, slug },
    });
    expect(presign.status()).toBe(200);

    await useAdminSession(page, token, "/admin/file-management");
    await page.getByLabel("Search files").fill(slug);
    const row = page.getByRole("row", { name: new RegExp(`${slug}\\.txt`) });
    await expect(row.getByText("Uploading", { exact: true })).toBeVisible();
    await expect(row.getByRole("button", { name: `Preview ${slug}.txt` })).toBeDisabled();
    await row.getByRole("button", { name: `Delete ${slug}.txt` }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Delete" }).click();
    await expect(row).toHaveCount(0);
    // The suffix is free again.
    const again = await createFileShare(request, token, `${slug}.txt`, "now finished", { slug });
    expect(again.slug).toBe(slug);
  });
});

test.describe("paste page Raw link", () => {
  test("on a phone the page says in words that Raw counts as a view, and offers no Raw on the last view", async ({
    browser,
    request,
  }) => {
    const token = await adminToken(request);
    const paste = await createPaste(request, `Bearer ${token}`, { content: "three views", max_views: 2 });
    const v = await visitor(browser, { viewport: PHONE });
    await v.page.goto(`/paste/${paste.slug}`);
    await expect(v.page.getByTestId("raw-notice")).toHaveText("Opening Raw counts as a view.");
    await expect(v.page.getByRole("link", { name: "Raw (opening it counts as a view)" })).toBeVisible();

    // The second visit is the last view: no Raw link (it could only fail), and the notice says why.
    const last = await visitor(browser, { viewport: PHONE });
    await last.page.goto(`/paste/${paste.slug}`);
    await expect(last.page.getByText("This was the last allowed view")).toBeVisible();
    await expect(last.page.getByRole("link", { name: /Raw/ })).toHaveCount(0);
    await expect(last.page.getByTestId("raw-notice")).toHaveText(
      "Raw is not offered: no view is left to open it.",
    );
    await v.context.close();
    await last.context.close();
  });
});

test.describe("home", () => {
  test("on a 390 px phone the created share link is shown whole, slug included", async ({
    page,
    request,
  }) => {
    await page.setViewportSize(PHONE);
    const token = await adminToken(request);
    await useAdminSession(page, token, "/");
    const slug = `${unique("long-share-link-suffix").replace(/[^a-z0-9-]/gi, "")}`.slice(0, 40);
    await fillEditor(page, "link on a phone");
    await page.getByLabel("Custom link suffix").fill(slug);
    await page.getByRole("button", { name: /Create share link/i }).click();
    const box = page.getByRole("textbox", { name: "Share link" });
    await expect(box).toHaveValue(new RegExp(`/paste/${slug}$`));
    const fits = await box.evaluate((el) => ({
      scroll: el.scrollWidth <= el.clientWidth + 1 && el.scrollHeight <= el.clientHeight + 1,
      right: el.getBoundingClientRect().right <= window.innerWidth,
    }));
    expect(fits).toEqual({ scroll: true, right: true });
    await expect(page.getByRole("button", { name: "Copy share link" })).toBeVisible();
  });

  test("Sign in from Home comes back to the draft, text still there", async ({ page }) => {
    await page.setViewportSize(DESKTOP);
    await page.goto("/");
    const text = `draft before signing in ${unique("d")}`;
    await fillEditor(page, text);
    await page.getByRole("link", { name: "Sign in", exact: true }).click();
    await page.getByLabel("Username").fill("admin");
    await page
      .getByLabel("Password", { exact: true })
      .fill(process.env.E2E_ADMIN_PASSWORD ?? "e2e-Admin-Pass-2026");
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.locator(".cm-content")).toContainText(text);
    await expect(page.getByRole("button", { name: /Create share link/i })).toBeVisible();
  });

  test("the paste remark is labelled as the page title visitors see", async ({ page, browser, request }) => {
    await page.setViewportSize(DESKTOP);
    const token = await adminToken(request);
    await useAdminSession(page, token, "/");
    await expect(page.getByText("Visitors see it as the page title.", { exact: false })).toBeVisible();
    await fillEditor(page, "titled");
    await page.getByLabel("Page title").fill("Meeting notes");
    await page.getByRole("button", { name: /Create share link/i }).click();
    const link = await page.getByRole("textbox", { name: "Share link" }).inputValue();
    const v = await visitor(browser);
    await v.page.goto(new URL(link).pathname);
    await expect(v.page.getByRole("heading", { level: 1, name: "Meeting notes" })).toBeVisible();
    await v.context.close();
  });
});

test.describe("file page", () => {
  test("a protected file shows the password badge, and its last view says so", async ({
    browser,
    request,
  }) => {
    const token = await adminToken(request);
    const file = await createFileShare(request, token, "badge.txt", "badge", {
      password: "pw-1234",
      max_views: 1,
    });
    const v = await visitor(browser, { viewport: DESKTOP });
    await v.page.goto(`/file/${file.slug}`);
    await v.page.getByLabel("Password", { exact: true }).fill("pw-1234");
    await v.page.getByRole("button", { name: "Show password" }).click();
    await expect(v.page.getByLabel("Password", { exact: true })).toHaveAttribute("type", "text");
    await v.page.getByRole("button", { name: "Open file" }).click();
    await expect(v.page.getByText("Password protected")).toBeVisible();
    await expect(
      v.page.getByText("This was the last allowed view: the file cannot be opened again."),
    ).toBeVisible();
    await v.context.close();
  });

  test("a share made in the explorer never shows visitors its server path", async ({ browser, request }) => {
    const token = await adminToken(request);
    const mountPath = `/${unique("docs")}`;
    await createLocalMount(request, token, mountPath, { storageName: unique("polish") });
    const filePath = `${mountPath}/Docs 2026/hello.txt`;
    await putFile(request, token, filePath, "hello");
    const share = await request.post("/api/fs/create-share", {
      headers: bearer(token),
      data: { path: filePath },
    });
    expect(share.status(), await share.text()).toBe(201);
    const v = await visitor(browser, { viewport: DESKTOP });
    await v.page.goto(`/file/${(await share.json()).data.slug}`);
    await expect(v.page.getByRole("heading", { level: 1, name: "hello.txt" })).toBeVisible();
    await expect(v.page.locator("main")).not.toContainText("Docs 2026");
    await expect(v.page.locator("main")).not.toContainText("From file system");
    await v.context.close();

    // The owner sees where it came from, in their language (0.7.3's remark stays on the wire).
    const zh = await browser.newContext({ locale: "zh-CN", viewport: DESKTOP });
    const admin = await zh.newPage();
    await useAdminSession(admin, token, "/admin/file-management");
    await expect(admin.getByText(`来自文件系统：${filePath}`).first()).toBeVisible();
    await expect(admin.locator("main")).not.toContainText("From file system");
    await zh.close();
  });

  test("missing paste and missing file end on the same card", async ({ page, consoleGuard }) => {
    consoleGuard.allow(failedResource(404));
    await page.setViewportSize(PHONE);
    const shape = async () =>
      page
        .locator("main section[aria-labelledby]")
        .first()
        .evaluate((el) => ({
          className: el.className,
          heading: el.querySelector("h1")?.className,
        }));
    await page.goto("/paste/no-such-paste-here");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    const paste = await shape();
    await page.goto("/file/no-such-file-here");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    expect(await shape()).toEqual(paste);
  });
});

test.describe("explorer preview links", () => {
  test("?preview= naming a file that is not there says so", async ({ page, request }) => {
    await page.setViewportSize(DESKTOP);
    const token = await adminToken(request);
    const name = unique("pv").replace(/[^a-z0-9-]/gi, "");
    await createLocalMount(request, token, `/${name}`, { storageName: unique("polish") });
    await useAdminSession(page, token, `/mount-explorer/${name}?preview=gone.pdf`);
    await expect(page.getByText('"gone.pdf" is not in this folder')).toBeVisible();
  });
});

test.describe("forms", () => {
  test("every password field on the sign-in page has a show/hide toggle", async ({ page }) => {
    await page.setViewportSize(PHONE);
    await page.goto("/admin");
    const field = page.getByLabel("Password", { exact: true });
    await field.fill("secret");
    await page.getByRole("button", { name: "Show password" }).click();
    await expect(field).toHaveAttribute("type", "text");
    await page.getByRole("button", { name: "Hide password" }).click();
    await expect(field).toHaveAttribute("type", "password");
  });

  test("the upload link suffix shows its /file/ prefix", async ({ page, request }) => {
    await page.setViewportSize(DESKTOP);
    await useAdminSession(page, await adminToken(request), "/upload");
    const suffix = page.getByLabel("Link suffix", { exact: false }).first();
    await expect(suffix).toBeVisible();
    const prefix = await suffix.evaluate((el) => el.previousElementSibling?.textContent);
    expect(prefix).toBe("/file/");
  });

  test("Settings has a visible header", async ({ page, request }) => {
    await page.setViewportSize(DESKTOP);
    await useAdminSession(page, await adminToken(request), "/admin/settings");
    await expect(page.getByRole("heading", { level: 2, name: "Settings" })).toBeVisible();
  });
});
