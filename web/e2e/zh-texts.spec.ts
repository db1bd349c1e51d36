import { adminToken, createFileShare, createPaste, useAdminSession } from "./support/factories";
import { expect, failedResource, test, unique } from "./support/fixtures";

/** A visitor whose browser speaks Chinese sees Chinese texts, also for the server's errors. */
test.use({ locale: "zh-CN" });

test("a wrong share password is reported in Chinese on the paste and file pages", async ({
  page,
  request,
  consoleGuard,
}) => {
  consoleGuard.allow(failedResource(401));
  const token = await adminToken(request);
  const paste = await createPaste(request, `Bearer ${token}`, {
    content: "秘密",
    password: "open-sesame",
  });
  const file = await createFileShare(request, token, `${unique("zh")}.txt`, "secret", {
    password: "open-sesame",
  });

  await page.goto(`/paste/${paste.slug}`);
  await page.getByLabel("密码", { exact: true }).fill("wrong");
  await page.getByRole("button", { name: "打开分享" }).click();
  await expect(page.getByRole("alert")).toHaveText("密码错误。");

  await page.goto(`/file/${file.slug}`);
  await page.getByRole("button", { name: "打开文件" }).click();
  await page.getByLabel("密码", { exact: true }).fill("wrong");
  await page.getByRole("button", { name: "打开文件" }).click();
  await expect(page.getByRole("alert")).toHaveText("密码错误。");
});

test("the storage made on first run is named in Chinese on the upload page", async ({ page, request }) => {
  const token = await adminToken(request);
  await useAdminSession(page, token, "/upload");
  const storage = page.getByLabel("存储", { exact: true });
  await expect(storage.locator("option").first()).toHaveText(/^本地存储 \(本地\)/);
  await expect(storage).not.toContainText("Local storage");
});

test("a raw link opened directly answers in Chinese", async ({ page, consoleGuard }) => {
  consoleGuard.allow(failedResource(404));
  // The raw answer is sandboxed without scripts, which the browser reports for its own tooling.
  consoleGuard.allow(/Blocked script execution .* the document's frame is sandboxed/);
  const res = await page.goto("/api/raw/no-such-paste-zh");
  expect(res?.status()).toBe(404);
  await expect(page.locator("body")).toHaveText("文本分享不存在或已过期");
});
