import { Permission } from "@clipshare/shared";
import type { APIRequestContext } from "@playwright/test";
import * as OTPAuth from "otpauth";
import { seriousViolations } from "./support/axe";
import {
  adminToken,
  bearer,
  createUser,
  type NewUser,
  signInToken,
  signInViaForm,
  useAdminSession,
} from "./support/factories";
import { expect, failedResource, test } from "./support/fixtures";

/** The code an authenticator app holding `secret` shows `stepsAhead` periods from now. */
const codeOf = (secret: string, stepsAhead = 0) =>
  new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) }).generate({
    timestamp: Date.now() + stepsAhead * 30_000,
  });

test.describe("two-factor sign-in", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("a user turns TOTP on in My account, then signs in with the password and a code from the app", async ({
    page,
    request,
    consoleGuard,
  }) => {
    // The password step answers 401 second_factor_required; the browser logs it.
    consoleGuard.allow(failedResource(401));
    const admin = await adminToken(request);
    const { username, password } = await createUser(request, admin, {
      prefix: "tf",
      password: "two-factor-pw-1",
    });
    const signIn = () => signInViaForm(page, username, password);
    await signIn();
    await expect(page.getByRole("heading", { name: "User panel" })).toBeVisible();
    await page.goto("/admin/profile");
    const card = page.getByRole("region", { name: "Two-factor sign-in" });
    await card.getByRole("button", { name: "Set up an authenticator app" }).click();
    await expect(card.getByRole("img", { name: "QR code for your authenticator app" })).toBeVisible();
    const secret = (await card.getByTestId("totp-secret").textContent())!.trim();
    await card.getByLabel("Code from the app").fill(codeOf(secret));
    await card.getByRole("button", { name: "Turn on" }).click();
    const codes = card.getByRole("list", { name: "Recovery codes" }).getByRole("listitem");
    await expect(codes).toHaveCount(10);
    expect(await seriousViolations(page, "recovery codes")).toEqual([]);
    await card.getByRole("button", { name: "I have saved them" }).click();
    await expect(card.getByText("10 recovery codes left")).toBeVisible();

    // Signed out: the password now leads to the code step.
    await page.getByRole("button", { name: "Log out" }).click();
    await signIn();
    const code = page.getByRole("textbox", { name: "Code", exact: true });
    await expect(code).toBeFocused();
    expect(await seriousViolations(page, "second-factor step")).toEqual([]);
    // The confirmation used this period's code; the app's next one is accepted (clock drift window).
    await code.fill(codeOf(secret, 1));
    await page.getByRole("button", { name: "Verify and sign in" }).click();
    await expect(page.getByRole("heading", { name: "User panel" })).toBeVisible();
  });

  test("an administrator resets the second factor of a user from the Users list", async ({
    page,
    request,
  }) => {
    const admin = await adminToken(request);
    const { username, password } = await userWithTotp(request, admin, { prefix: "lost" });

    await useAdminSession(page, admin, "/admin/users");
    // At 390 px the list is a list of cards.
    const row = page.getByRole("listitem").filter({ hasText: username });
    await expect(row.getByText("Two-factor", { exact: true })).toBeVisible();
    await row.getByRole("button", { name: `Reset the second factor of ${username}` }).click();
    const dialog = page.getByRole("alertdialog", { name: `Reset the second factor of ${username}?` });
    expect(await seriousViolations(page, "reset second factor")).toEqual([]);
    await dialog.getByRole("button", { name: "Reset second factor" }).click();
    await expect(page.getByText(`Second factor of ${username} reset`)).toBeVisible();
    await expect(row.getByText("Two-factor", { exact: true })).toHaveCount(0);
    await expect(row.getByRole("button", { name: `Reset the second factor of ${username}` })).toHaveCount(0);

    // The password alone signs them in again.
    expect(await signInToken(request, username, password)).toBeTruthy();
  });

  test("a user makes an app password in My account, WebDAV takes it, and revoking it ends that", async ({
    page,
    request,
  }) => {
    const admin = await adminToken(request);
    const { username, password } = await createUser(request, admin, {
      prefix: "dav",
      permissions: Permission.WEBDAV_READ | Permission.MOUNT_VIEW,
    });
    await signInViaForm(page, username, password);
    await expect(page.getByRole("heading", { name: "User panel" })).toBeVisible();
    await page.goto("/admin/profile");

    const card = page.getByRole("region", { name: "App passwords" });
    await card.getByLabel("Name").fill("laptop file manager");
    await card.getByRole("button", { name: "Create app password" }).click();
    const shown = card.getByLabel("App password for laptop file manager");
    await expect(shown).toHaveValue(/^[A-Za-z0-9]{32}$/);
    const appPassword = await shown.inputValue();
    expect(await seriousViolations(page, "new app password")).toEqual([]);
    await card.getByRole("button", { name: "Done" }).click();
    await expect(shown).toHaveCount(0);
    await expect(card.getByRole("listitem").filter({ hasText: "laptop file manager" })).toBeVisible();

    const basic = { authorization: `Basic ${Buffer.from(`${username}:${appPassword}`).toString("base64")}` };
    const dav = await request.fetch("/dav/", { method: "PROPFIND", headers: { ...basic, depth: "0" } });
    expect(dav.status()).toBe(207);

    await card.getByRole("button", { name: "Revoke laptop file manager" }).click();
    await page
      .getByRole("alertdialog", { name: "Revoke laptop file manager?" })
      .getByRole("button", { name: "Revoke" })
      .click();
    await expect(page.getByText("App password revoked")).toBeVisible();
    await expect(card.getByText("No app passwords yet")).toBeVisible();
    const after = await request.fetch("/dav/", { method: "PROPFIND", headers: { ...basic, depth: "0" } });
    expect(after.status()).toBe(401);
  });

  test("with a second factor required, an administrator without one is sent to My account to enrol", async ({
    page,
    request,
    consoleGuard,
  }) => {
    // The panel's first requests before the redirect are refused with 403.
    consoleGuard.allow(failedResource(403));
    consoleGuard.allow(failedResource(400));
    const admin = await adminToken(request);
    // Without a second factor of one's own the setting is refused, in the settings card too.
    await useAdminSession(page, admin, "/admin/settings");
    const settings = page.getByRole("region", { name: "Administrators' second factor" });
    await settings.getByLabel("Require a second factor for administrators").check();
    await settings.getByRole("button", { name: "Save" }).click();
    await expect(settings.getByText("Turn on two-factor sign-in for your own account first")).toBeVisible();

    // Another administrator with TOTP turns it on (the first one must keep signing in for the other tests).
    const { token: enforcerToken } = await userWithTotp(request, admin, { prefix: "enf", role: "admin" });
    const enforcerAuth = { Authorization: `Bearer ${enforcerToken}` };
    const on = await request.put("/api/admin/system-settings", {
      headers: enforcerAuth,
      data: { require_admin_second_factor: true },
    });
    expect(on.status(), await on.text()).toBe(200);
    try {
      const { username, password } = await createUser(request, enforcerToken, {
        prefix: "newadm",
        role: "admin",
      });
      await page.evaluate(() => localStorage.clear());
      await signInViaForm(page, username, password);
      await expect(page).toHaveURL(/\/admin\/profile$/);
      await expect(page.getByText("Administrators here must use two-factor sign-in.")).toBeVisible();
      expect(await seriousViolations(page, "enrolment required")).toEqual([]);
      await page.goto("/admin/users");
      await expect(page).toHaveURL(/\/admin\/profile$/);

      const card = page.getByRole("region", { name: "Two-factor sign-in" });
      await card.getByRole("button", { name: "Set up an authenticator app" }).click();
      const secret = (await card.getByTestId("totp-secret").textContent())!.trim();
      await card.getByLabel("Code from the app").fill(codeOf(secret));
      await card.getByRole("button", { name: "Turn on" }).click();
      await card.getByRole("button", { name: "I have saved them" }).click();
      await expect(page.getByText("Administrators here must use two-factor sign-in.")).toHaveCount(0);
      await page.goto("/admin/users");
      await expect(page).toHaveURL(/\/admin\/users$/);
      await expect(page.getByRole("listitem").filter({ hasText: username })).toBeVisible();
    } finally {
      const off = await request.put("/api/admin/system-settings", {
        headers: enforcerAuth,
        data: { require_admin_second_factor: false },
      });
      expect(off.status()).toBe(200);
    }
  });
});

/** A new user with TOTP confirmed through the API, as the app would; returns the secret and a session. */
async function userWithTotp(request: APIRequestContext, admin: string, user: NewUser) {
  const { username, password } = await createUser(request, admin, user);
  const token = await signInToken(request, username, password);
  const auth = bearer(token);
  const setup = await request.post("/api/account/two-factor/totp", { headers: auth });
  const secret = (await setup.json()).data.secret as string;
  const confirmed = await request.post("/api/account/two-factor/totp/confirm", {
    headers: auth,
    data: { code: codeOf(secret) },
  });
  expect(confirmed.status(), await confirmed.text()).toBe(200);
  return { username, password, secret, token };
}
