import { Permission } from "@clipshare/shared";
import { seriousViolations } from "./support/axe";
import {
  adminToken,
  createInvitation,
  createPaste,
  createUser,
  signInToken,
  signInViaForm,
  useAdminSession,
} from "./support/factories";
import { expect, test, unique } from "./support/fixtures";
import { fillEditor } from "./support/pastes";

test.describe("accounts", () => {
  test("an invited user signs up, signs in, creates a paste, and the administrator sees it with its owner", async ({
    page,
    browser,
    request,
  }) => {
    const admin = await adminToken(request);
    const path = await createInvitation(request, admin, {
      role: "user",
      permissions: Permission.TEXT | Permission.FILE_SHARE,
    });
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
    await signInViaForm(page, username, password);
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
  test("a user sets their own notification recipients in My account, and goes back to the administrator's", async ({
    page,
    request,
  }) => {
    const admin = await adminToken(request);
    const { username, password } = await createUser(request, admin, {
      prefix: "nia",
      role: "user",
      permissions: Permission.TEXT,
    });
    await signInViaForm(page, username, password);
    await expect(page.getByText(`Signed in as ${username}`)).toBeVisible();
    await page.goto("/admin/profile");
    const card = page.getByRole("region", { name: "Notifications" });
    await expect(card.getByTestId("notification-defaults-source")).toContainText("administrator's default");
    await card.getByLabel("E-mail", { exact: true }).fill("nia@example.test");
    await card.getByRole("checkbox", { name: "A share was opened for the first time" }).uncheck();
    await card.getByRole("button", { name: "Save" }).click();
    await expect(page.getByText("Your notification defaults are saved")).toBeVisible();
    expect(await seriousViolations(page, "my account, notifications")).toEqual([]);

    // Kept by the server: a reload shows them, and the API answers them.
    await page.reload();
    await expect(card.getByTestId("notification-defaults-source")).toContainText("Your own recipients apply");
    await expect(card.getByLabel("E-mail", { exact: true })).toHaveValue("nia@example.test");
    await expect(
      card.getByRole("checkbox", { name: "A share was opened for the first time" }),
    ).not.toBeChecked();
    const token = await signInToken(request, username, password);
    const own = await request.get("/api/account/notifications", {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect((await own.json()).data).toMatchObject({ uses_admin_defaults: false, email: "nia@example.test" });

    await card.getByRole("button", { name: "Use the administrator's defaults" }).click();
    await expect(page.getByText("The administrator's defaults apply again")).toBeVisible();
    await expect(card.getByTestId("notification-defaults-source")).toContainText("administrator's default");
  });
  test("a share's own recipients, set from its row in Text management, apply in place of the defaults", async ({
    page,
    request,
  }) => {
    const admin = await adminToken(request);
    const { slug } = await createPaste(request, `Bearer ${admin}`, {
      content: "tell me",
      slug: unique("notify").replace(/[^A-Za-z0-9_-]/g, ""),
    });

    await useAdminSession(page, admin, "/admin/text-management");
    await page
      .getByRole("button", { name: `Notifications of ${slug}` })
      .first()
      .click();
    const dialog = page.getByRole("dialog", { name: "Notifications" });
    await expect(dialog.getByText("The default recipients apply.")).toBeVisible();
    await dialog.getByLabel("E-mail", { exact: true }).fill("paste-owner@example.test");
    await dialog.getByRole("button", { name: "Save" }).click();
    await expect(page.getByText("Notifications saved")).toBeVisible();

    await page
      .getByRole("button", { name: `Notifications of ${slug}` })
      .first()
      .click();
    await expect(dialog.getByText("These recipients apply in place of the defaults.")).toBeVisible();
    await expect(dialog.getByLabel("E-mail", { exact: true })).toHaveValue("paste-owner@example.test");
    await dialog.getByRole("button", { name: "Use the defaults" }).click();
    await expect(page.getByText("The defaults apply again")).toBeVisible();
  });
});
