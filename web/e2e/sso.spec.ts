import { startTestIdp } from "../../server/test/support/oidc-idp";
import { seriousViolations } from "./support/axe";
import { adminToken } from "./support/factories";
import { expect, test, unique } from "./support/fixtures";

test.use({ viewport: { width: 390, height: 844 } });

test("single sign-on through the test IdP creates a user with the role from a claim and lands signed in", async ({
  page,
  request,
}) => {
  const baseUrl = process.env.E2E_BASE_URL!;
  const email = `${unique("sso").replace(/[^A-Za-z0-9]/g, "")}@example.com`;
  const idp = await startTestIdp(
    [`${baseUrl}/api/auth/oidc/callback`],
    [{ sub: `sub-${email}`, email, password: "idp-password", name: "Sso Person", groups: ["cs-admins"] }],
    Number(process.env.E2E_IDP_PORT),
  );
  const admin = await adminToken(request);
  const configure = (data: Record<string, unknown>) =>
    request.put("/api/admin/sso-settings", { headers: { Authorization: `Bearer ${admin}` }, data });
  try {
    const saved = await configure({
      enabled: true,
      provider_name: "Test IdP",
      issuer_url: idp.issuer,
      client_id: idp.clientId,
      client_secret: idp.clientSecret,
      role_claim: "groups",
      admin_values: ["cs-admins"],
      auto_create: true,
    });
    expect(saved.status(), await saved.text()).toBe(200);

    await page.goto("/admin");
    const button = page.getByRole("link", { name: "Sign in with Test IdP" });
    await expect(button).toBeVisible();
    expect(await seriousViolations(page, "sign-in with single sign-on")).toEqual([]);
    await button.click();

    // The provider's own login form.
    await page.getByLabel("Name").fill(email);
    await page.getByLabel("Password").fill("idp-password");
    await page.getByRole("button", { name: "Sign in at the IdP" }).click();

    // Signed in, as an administrator (the claim's role), and the one-time code left the address bar.
    await expect(page.getByRole("heading", { name: "Admin panel" })).toBeVisible();
    await expect(page.getByText("Signed in as Administrator")).toBeVisible();
    expect(new URL(page.url()).hash).toBe("");
    const username = email.split("@")[0]!;
    const users = await request.get(`/api/admin/users?search=${username}`, {
      headers: { Authorization: `Bearer ${admin}` },
    });
    expect((await users.json()).data.users).toMatchObject([{ username, email, role: "admin" }]);
  } finally {
    await configure({ enabled: false });
    await idp.close();
  }
});
