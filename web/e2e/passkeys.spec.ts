import type { CDPSession, Page } from "@playwright/test";
import { seriousViolations } from "./support/axe";
import { adminToken, createUser, signInViaForm } from "./support/factories";
import { expect, failedResource, test } from "./support/fixtures";

/**
 * Chromium's virtual authenticator (DevTools protocol): a platform authenticator with resident
 * keys and user verification, answering navigator.credentials as a phone's screen lock would.
 */
async function virtualAuthenticator(page: Page): Promise<CDPSession> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return cdp;
}

test.describe("passkeys", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("a user adds a passkey in My account, signs in with it alone, and with the password and it as the second factor", async ({
    page,
    request,
    baseURL,
    consoleGuard,
  }) => {
    // The password step answers 401 second_factor_required once the passkey is there; the browser logs it.
    consoleGuard.allow(failedResource(401));
    // A WebAuthn RP ID must be a domain name: the page is opened as localhost (still loopback).
    const site = baseURL!.replace("127.0.0.1", "localhost");
    const admin = await adminToken(request);
    const { username, password } = await createUser(request, admin, {
      prefix: "pk",
      password: "passkey-pw-1",
    });
    await virtualAuthenticator(page);

    const passwordStep = () => signInViaForm(page, username, password, site);
    await passwordStep();
    await expect(page.getByRole("heading", { name: "User panel" })).toBeVisible();

    await page.goto(`${site}/admin/profile`);
    const card = page.getByRole("region", { name: "Passkeys" });
    await expect(card.getByText("No passkeys yet.")).toBeVisible();
    await card.getByLabel("Name of the new passkey").fill("Test phone");
    await card.getByRole("button", { name: "Add a passkey" }).click();
    // At 390 px the passkeys are a list (the table is for wide screens).
    const rows = card.getByRole("list", { name: "Your passkeys" }).getByRole("listitem");
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText("Test phone");
    await expect(rows.first()).toContainText("Never");
    expect(await seriousViolations(page, "passkeys card")).toEqual([]);

    // Renamed in place.
    await card.getByRole("button", { name: "Rename passkey Test phone" }).click();
    await card.getByLabel("New name for Test phone").fill("My phone");
    await card.getByRole("button", { name: "Save" }).click();
    await expect(rows.first()).toContainText("My phone");

    // Passwordless: no name, no password.
    await page.getByRole("button", { name: "Log out" }).click();
    await page.goto(`${site}/admin`);
    await page.getByRole("button", { name: "Sign in with a passkey" }).click();
    await expect(page.getByRole("heading", { name: "User panel" })).toBeVisible();
    await page.goto(`${site}/admin/profile`);
    // Its use is recorded.
    await expect(rows.first()).toContainText("My phone");
    await expect(rows.first()).not.toContainText("Never");

    // The password now leads to the passkey as the second step.
    await page.getByRole("button", { name: "Log out" }).click();
    await passwordStep();
    const usePasskey = page.getByRole("button", { name: "Use a passkey" });
    await expect(usePasskey).toBeVisible();
    expect(await seriousViolations(page, "passkey second step")).toEqual([]);
    await usePasskey.click();
    await expect(page.getByRole("heading", { name: "User panel" })).toBeVisible();

    // Deleted: the password alone signs in again.
    await page.goto(`${site}/admin/profile`);
    const list = page.getByRole("region", { name: "Passkeys" });
    await list.getByRole("button", { name: "Delete passkey My phone" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Delete" }).click();
    await expect(list.getByText("No passkeys yet.")).toBeVisible();
    await page.getByRole("button", { name: "Log out" }).click();
    await passwordStep();
    await expect(page.getByRole("heading", { name: "User panel" })).toBeVisible();
  });
});
