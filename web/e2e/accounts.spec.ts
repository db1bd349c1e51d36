import { Permission } from "@clipshare/shared";
import { apiLogin, expect, test, unique, useAdminSession } from "./support/fixtures";
import { fillEditor } from "./support/pastes";

test.describe("accounts", () => {
  test("an invited user signs up, signs in, creates a paste, and the administrator sees it with its owner", async ({
    page,
    browser,
    request,
  }) => {
    const admin = await apiLogin(request);
    const made = await request.post("/api/admin/invitations", {
      headers: { Authorization: `Bearer ${admin}` },
      data: { role: "user", permissions: Permission.TEXT | Permission.FILE_SHARE },
    });
    expect(made.status(), await made.text()).toBe(201);
    const { path } = (await made.json()).data as { path: string };
    const username = unique("ann").replace(/[^A-Za-z0-9_.@-]/g, "");
    const password = "ann-password-1";

    // The link opens the sign-up page; signing up signs in.
    await page.goto(path);
    await expect(page.getByRole("heading", { name: "Create your account" })).toBeVisible();
    await expect(page.getByText("You are invited as a user.")).toBeVisible();
    await page.getByLabel("Username").fill(username);
    await page.getByLabel("Password", { exact: true }).fill(password);
    await page.getByLabel("Confirm password").fill(password);
    await page.getByRole("button", { name: "Create account and sign in" }).click();
    await expect(page.getByRole("heading", { level: 2, name: "My account" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "User panel" })).toBeVisible();

    // Out, and in again with the new name and password.
    await page.getByRole("button", { name: "Log out" }).click();
    await page.goto("/admin");
    await page.getByLabel("Username").fill(username);
    await page.getByLabel("Password").fill(password);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(page.getByText(`Signed in as ${username}`)).toBeVisible();

    await page.goto("/");
    await page.getByRole("group", { name: "Format" }).getByRole("button", { name: "Plain text" }).click();
    await fillEditor(page, "a note from an invited user");
    await page.getByRole("button", { name: "Create share link" }).click();
    const link = await page
      .getByRole("region", { name: "Share link created" })
      .getByRole("textbox", { name: "Share link" })
      .inputValue();
    const slug = link.split("/paste/")[1]!;

    // The administrator's list names the owner, and filters by them.
    const context = await browser.newContext({ baseURL: process.env.E2E_BASE_URL });
    const adminPage = await context.newPage();
    await useAdminSession(adminPage, admin, "/admin/text-management");
    await expect(adminPage.getByRole("heading", { level: 2, name: "Text management" })).toBeVisible();
    await expect(adminPage.getByRole("row", { name: new RegExp(slug) })).toContainText(username);
    await adminPage.getByRole("combobox", { name: "Owner" }).selectOption({ label: username });
    await expect(adminPage.getByRole("row", { name: new RegExp(slug) })).toBeVisible();
    await expect(adminPage.locator("tbody tr")).toHaveCount(1);
    await context.close();
  });
});
