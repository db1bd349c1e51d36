import * as OTPAuth from "otpauth";
import { seriousViolations } from "./support/axe";
import { apiLogin, expect, failedResource, test, unique } from "./support/fixtures";

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
    const admin = await apiLogin(request);
    const username = unique("tf").replace(/[^A-Za-z0-9_.@-]/g, "");
    const password = "two-factor-pw-1";
    const made = await request.post("/api/admin/users", {
      headers: { Authorization: `Bearer ${admin}` },
      data: { username, password },
    });
    expect(made.status(), await made.text()).toBe(201);

    const signIn = async () => {
      await page.goto("/admin");
      await page.getByLabel("Username").fill(username);
      await page.getByLabel("Password").fill(password);
      await page.getByRole("button", { name: "Sign in", exact: true }).click();
    };
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
});
