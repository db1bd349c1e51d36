import { expect, test } from "./support/fixtures";

/** The in-app API reference renders /api/openapi.json for anyone, in both languages. */

test("lists the API by group, filters it and opens an operation", async ({ page }) => {
  await page.goto("/");
  await page.getByRole("contentinfo").getByRole("link", { name: "API reference" }).click();
  await expect(page).toHaveURL(/\/api-docs$/);
  await expect(page.getByRole("heading", { level: 1, name: "API reference" })).toBeVisible();
  await expect(page).toHaveTitle(/API reference/);
  await expect(page.getByRole("heading", { level: 2, name: "File system" })).toBeVisible();
  await expect(page.getByRole("heading", { level: 2, name: "Pastes" })).toBeVisible();
  const total = Number(
    (await page.getByRole("status").filter({ hasText: "operations" }).textContent())?.match(/\d+/)?.[0],
  );
  expect(total).toBeGreaterThan(90);

  await page.getByRole("searchbox", { name: "Filter" }).fill("thumbnail");
  // Explorer files, file shares and collection items.
  await expect(page.getByText("3 operations")).toBeVisible();
  const op = page.locator('[data-operation="GET /api/fs/thumbnail"]');
  await op.locator("summary").click();
  await expect(
    op.getByText("Administrators, or a user or API key with the permission for it."),
  ).toBeVisible();
  await expect(op.locator("li").filter({ hasText: /^path/ })).toContainText("required");
  await expect(op.locator("li").filter({ hasText: /^size/ })).toContainText('"256" | "1024"');
  await expect(op.getByText("image/webp").first()).toBeVisible();
  // The permission bit a key needs, and the errors by status.
  await expect(op.getByText("API keys need the permission bits:")).toBeVisible();
  await expect(op.locator("code", { hasText: "MOUNT_VIEW (256)" })).toBeVisible();
  await expect(op.locator("li").filter({ hasText: /^403/ })).toContainText("permission_denied");

  await page.getByRole("searchbox", { name: "Filter" }).fill("POST /api/admin/login");
  const login = page.locator('[data-operation="POST /api/admin/login"]');
  await login.locator("summary").click();
  await expect(login.getByText("No sign-in needed.")).toBeVisible();
  // The answer shows `data` of the envelope with its fields.
  await expect(login.getByText("(the data field of the envelope)")).toBeVisible();
  await expect(login.locator("code", { hasText: /^expiresAt$/ })).toBeVisible();
});

test("the page chrome is in Chinese when the app is", async ({ browser }) => {
  const context = await browser.newContext({ baseURL: process.env.E2E_BASE_URL, locale: "zh-CN" });
  const page = await context.newPage();
  await page.addInitScript(() => localStorage.setItem("language", "zh"));
  await page.goto("/api-docs");
  await expect(page.getByRole("heading", { level: 1, name: "API 参考" })).toBeVisible();
  await expect(page.getByRole("searchbox", { name: "筛选" })).toBeVisible();
  await expect(page.getByText(/^共 \d+ 个接口$/)).toBeVisible();
  await context.close();
});
