import { adminToken, useAdminSession } from "./support/factories";
import { expect, test } from "./support/fixtures";

test.describe("environment switcher", () => {
  test("hidden unless an admin asks for it", async ({ page, request }) => {
    await page.goto("/?showEnvSwitcher");
    await expect(page.getByRole("region", { name: "Environment switcher" })).toHaveCount(0);

    const token = await adminToken(request);
    await useAdminSession(page, token, "/admin");
    await expect(page.getByRole("region", { name: "Environment switcher" })).toHaveCount(0);

    await page.goto("/admin?showEnvSwitcher");
    const panel = page.getByRole("region", { name: "Environment switcher" });
    await expect(panel).toBeVisible();
    await expect(panel).toContainText("Default: this site's own server");

    await panel.getByLabel("Backend URL").fill("ftp://nope");
    await panel.getByRole("button", { name: "Use this backend" }).click();
    await expect(panel.getByText("Enter an http or https URL")).toBeVisible();

    // Point at this same server through an explicit URL, then reset.
    const origin = new URL(page.url()).origin;
    await panel.getByLabel("Backend URL").fill(origin);
    await panel.getByRole("button", { name: "Use this backend" }).click();
    await expect(page.getByRole("region", { name: "Environment switcher" })).toContainText(
      "Set in this browser",
    );
    expect(await page.evaluate(() => localStorage.getItem("api_base_url"))).toBe(origin);
    await expect(page.getByRole("heading", { name: "Admin panel" })).toBeVisible();

    await page
      .getByRole("region", { name: "Environment switcher" })
      .getByRole("button", { name: "Reset to default" })
      .click();
    await expect(page.getByRole("region", { name: "Environment switcher" })).toContainText(
      "Default: this site's own server",
    );
    expect(await page.evaluate(() => localStorage.getItem("api_base_url"))).toBeNull();
  });
});
