import { Permission } from "@clipshare/shared";
import { adminToken, createApiKey, signInAsAdminViaForm, signInWithKeyViaForm } from "./support/factories";
import { expect, failedResource, test, unique } from "./support/fixtures";

test.describe("administrator sign-in", () => {
  test("wrong password shows an error", async ({ page, consoleGuard }) => {
    consoleGuard.allow(failedResource(401));
    await page.goto("/admin");
    await page.getByLabel("Username").fill("admin");
    await page.getByLabel("Password").fill("not-the-password");
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(page.getByRole("alert")).toHaveText("Wrong username or password.");
    expect(await page.evaluate(() => localStorage.getItem("admin_token"))).toBeNull();
  });

  test("empty fields are refused before calling the server", async ({ page }) => {
    await page.goto("/admin");
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(page.getByText("Enter the username.")).toBeVisible();
    await expect(page.getByText("Enter the password.")).toBeVisible();
  });

  test("login, session restore, logout", async ({ page }) => {
    await signInAsAdminViaForm(page);
    const sidebar = page.getByRole("navigation", { name: "Panel sections" });
    await expect(sidebar.getByRole("link")).toHaveCount(12);
    await expect(page.getByText("Signed in as Administrator")).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem("admin_token"))).toBeTruthy();

    await page.reload();
    await expect(page.getByRole("heading", { name: "Admin panel" })).toBeVisible();
    // The same words as before the reload.
    await expect(page.getByText("Signed in as Administrator")).toBeVisible();
    await expect(page).toHaveTitle("Admin panel - ClipShare");

    const token = await page.evaluate(() => localStorage.getItem("admin_token"));
    const events: string[] = [];
    await page.exposeFunction("recordAuthEvent", (name: string) => events.push(name));
    await page.evaluate(() => {
      for (const name of ["auth-state-changed", "admin-token-expired", "api-key-invalid"]) {
        window.addEventListener(name, () =>
          (window as unknown as { recordAuthEvent: (n: string) => void }).recordAuthEvent(name),
        );
      }
    });
    await page.getByRole("button", { name: "Log out" }).click();
    await expect(page.getByRole("heading", { name: "Sign in", exact: true })).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem("admin_token"))).toBeNull();
    await expect.poll(() => events).toEqual(["auth-state-changed"]);

    // The server revoked the token.
    await expect
      .poll(async () => {
        const res = await page.request.get("/api/test/admin-token", {
          headers: { Authorization: `Bearer ${token}` },
        });
        return res.status();
      })
      .toBe(401);
  });

  test("a token the server no longer accepts ends the session with a notice", async ({
    page,
    consoleGuard,
  }) => {
    consoleGuard.allow(failedResource(401));
    await page.goto("/");
    await page.evaluate(() => localStorage.setItem("admin_token", "revoked-or-made-up-token"));
    await page.goto("/admin");
    await expect(page.getByRole("heading", { name: "Sign in", exact: true })).toBeVisible();
    await expect(page.getByText("Admin session expired, please log in again.")).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem("admin_token"))).toBeNull();
  });
});

test.describe("API key sign-in", () => {
  test("limited permissions show only the allowed modules", async ({ page, request }) => {
    const token = await adminToken(request);
    const textOnly = await createApiKey(request, token, {
      name: unique("text-only"),
      permissions: Permission.TEXT,
    });

    await signInWithKeyViaForm(page, textOnly.key);

    await expect(page.getByRole("heading", { name: "User panel" })).toBeVisible();
    const sidebar = page.getByRole("navigation", { name: "Panel sections" });
    await expect(sidebar.getByRole("link")).toHaveCount(1);
    await expect(sidebar.getByRole("link", { name: "Text management" })).toBeVisible();
    await expect(page.getByRole("heading", { level: 2, name: "Text management" })).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem("api_key"))).toBe(textOnly.key);
    expect(
      JSON.parse((await page.evaluate(() => localStorage.getItem("api_key_permissions"))) ?? "{}"),
    ).toMatchObject({
      text: true,
      file_share: false,
      mount_view: false,
    });
    expect(
      JSON.parse((await page.evaluate(() => localStorage.getItem("api_key_info"))) ?? "{}"),
    ).toMatchObject({
      basic_path: "/",
    });

    // A module the key may not use says why, in place, instead of sending the key elsewhere.
    await page.goto("/admin/key-management");
    await expect(page).toHaveURL(/\/admin\/key-management$/);
    await expect(
      page.getByRole("heading", { name: "This API key cannot open Key management" }),
    ).toBeVisible();
    await expect(page.getByText("Only the administrator can open it.")).toBeVisible();
    await page.goto("/admin/file-management");
    await expect(
      page.getByRole("heading", { name: "This API key cannot open File management" }),
    ).toBeVisible();
    await expect(page.getByText('It needs the "File sharing" permission')).toBeVisible();
    await page.evaluate(() => localStorage.setItem("language", "zh"));
    await page.reload();
    await expect(page.getByRole("heading", { name: "此 API 密钥无法打开文件管理" })).toBeVisible();
    await expect(page.getByText("需要“文件分享”权限")).toBeVisible();
    await page.evaluate(() => localStorage.setItem("language", "en"));
    await page.goto("/admin/no-such-module");
    await expect(page).toHaveURL(/\/admin$/);
    await expect(sidebar.getByRole("link")).toHaveCount(1);
    // The tab names the panel the key holder sees.
    await expect(page).toHaveTitle("User panel - ClipShare");

    // The top navigation leaves out the pages the key cannot use.
    const topNav = page.getByRole("navigation", { name: "Main navigation" });
    await expect(topNav.getByRole("link", { name: "Home" })).toBeVisible();
    await expect(topNav.getByRole("link", { name: "Upload" })).toHaveCount(0);
    await expect(topNav.getByRole("link", { name: "Mount explorer" })).toHaveCount(0);
    // The explorer says what the key lacks instead of asking it to sign in.
    await page.goto("/mount-explorer");
    await expect(page.getByRole("heading", { name: "This API key cannot browse mounts" })).toBeVisible();
    await expect(page.getByRole("main").getByRole("link", { name: "Sign in", exact: true })).toHaveCount(0);
    await page.goto("/admin");

    await page.getByRole("button", { name: "Log out" }).click();
    await expect(page.getByRole("heading", { name: "Sign in", exact: true })).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem("api_key"))).toBeNull();
  });

  test("file and mount permissions show their modules", async ({ page, request, consoleGuard }) => {
    // No mount exists under /team in this test, so the explorer's listing there is a 404.
    consoleGuard.allow(failedResource(404));
    const token = await adminToken(request);
    const key = await createApiKey(request, token, {
      name: unique("file-mount"),
      permissions: Permission.FILE_SHARE | Permission.MOUNT_VIEW,
      basic_path: "/team",
    });
    await signInWithKeyViaForm(page, key.key);
    const sidebar = page.getByRole("navigation", { name: "Panel sections" });
    await expect(sidebar.getByRole("link")).toHaveText([
      "File management",
      "File requests",
      "Collections",
      "Mount management",
    ]);

    // Route guard: outside the base path the explorer goes to the base path.
    await page.goto("/mount-explorer/elsewhere");
    await expect(page).toHaveURL(/\/mount-explorer\/team$/);
    await page.goto("/mount-explorer/team/reports");
    await expect(page).toHaveURL(/\/mount-explorer\/team\/reports$/);
  });

  test("invalid key is refused", async ({ page, consoleGuard }) => {
    consoleGuard.allow(failedResource(401));
    await page.goto("/admin");
    // Switching tabs from the keyboard puts the cursor in the key field.
    await page.getByRole("tab", { name: "Administrator" }).focus();
    await page.keyboard.press("ArrowRight");
    const keyField = page.getByRole("textbox", { name: "API key" });
    await expect(keyField).toBeFocused();
    await page.keyboard.type("definitely-not-a-key");
    // Shown as text, the key is not spell-checked.
    await page.getByRole("button", { name: "Show password" }).click();
    await expect(keyField).toHaveAttribute("type", "text");
    await expect(keyField).toHaveAttribute("spellcheck", "false");
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(page.getByRole("alert")).toHaveText("API key invalid or expired.");
    expect(await page.evaluate(() => localStorage.getItem("api_key"))).toBeNull();
  });

  test("a key without panel permissions is refused, and the guard sends such sessions home", async ({
    page,
    request,
  }) => {
    const token = await adminToken(request);
    const dav = await createApiKey(request, token, {
      name: unique("dav-only"),
      permissions: Permission.WEBDAV_READ,
    });
    await signInWithKeyViaForm(page, dav.key);
    await expect(page.getByRole("alert")).toContainText("no permission to use the panel");

    // A stored session of such a key (e.g. permissions changed later) is redirected home.
    await page.evaluate((key) => {
      localStorage.setItem("api_key", key);
      localStorage.setItem("api_key_permissions", JSON.stringify({ webdav_read: true }));
    }, dav.key);
    await page.goto("/admin");
    await expect(page).toHaveURL(/\/$/);
    await expect(page).toHaveTitle("Online clipboard - ClipShare");
  });
});
