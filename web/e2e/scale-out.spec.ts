import { RIG_ADMIN, type Rig, rigMissing, startRig } from "../../scripts/scale-out/rig.mjs";
import { ConsoleGuard, expect, test, unique } from "./support/fixtures";
import { fillEditor } from "./support/pastes";

/**
 * The web app against two ClipShare instances behind nginx (scripts/scale-out/rig.mjs): the
 * browser's requests alternate between them, and signing in, sharing and viewing still work.
 * Needs the test services (PostgreSQL, S3); without them skipped, or failing under
 * CLIPSHARE_REQUIRE_SERVICES=1.
 */
const missing = rigMissing();
if (missing && process.env.CLIPSHARE_REQUIRE_SERVICES === "1")
  throw new Error(`scale-out browser test needs its services: ${missing}`);

test.describe("two instances behind nginx", () => {
  test.skip(missing !== null, missing ?? "");
  let rig: Rig | null = null;
  test.beforeAll(async () => {
    test.setTimeout(90_000);
    rig = await startRig();
  });
  test.afterAll(async () => {
    await rig?.stop();
  });

  test("the admin signs in and shares a paste, a visitor opens it; both instances serve the browser", async ({
    browser,
  }) => {
    const base = rig!.url;
    const served = new Set<string>();
    const open = async () => {
      const context = await browser.newContext({ baseURL: base, locale: "en-US" });
      context.on("response", (r) => {
        const instance = r.headers()["x-clipshare-instance"];
        if (instance) served.add(instance);
      });
      const page = await context.newPage();
      const guard = new ConsoleGuard();
      guard.watch(page);
      return { context, page, guard };
    };

    const admin = await open();
    const page = admin.page;
    await page.goto("/admin");
    await page.getByLabel("Username").fill(RIG_ADMIN.username);
    await page.getByLabel("Password").fill(RIG_ADMIN.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    const panel = page.getByRole("heading", { name: "Admin panel" });
    await expect(panel).toBeVisible();
    // The token one instance issued is accepted by whichever instance answers the reloads.
    for (let i = 0; i < 3; i++) {
      await page.reload();
      await expect(panel).toBeVisible();
    }

    await page.goto("/");
    await fillEditor(page, "shared through two instances");
    const slug = unique("lb");
    await page.getByLabel("Custom link suffix").fill(slug);
    await page.getByLabel("Max views").fill("3");
    await page.getByRole("button", { name: "Create share link" }).click();
    const result = page.getByRole("region", { name: "Share link created" });
    await expect(result.getByRole("textbox", { name: "Share link" })).toHaveValue(`${base}/paste/${slug}`);

    const visitor = await open();
    for (const left of ["2 of 3 views left", "1 of 3 views left"]) {
      await visitor.page.goto(`/paste/${slug}`);
      await expect(visitor.page.getByText("shared through two instances")).toBeVisible();
      await expect(visitor.page.getByTestId("paste-views")).toHaveText(left);
    }
    expect([...served].sort()).toEqual(["a", "b"]);
    expect(admin.guard.unexpected(), "admin console errors").toEqual([]);
    expect(visitor.guard.unexpected(), "visitor console errors").toEqual([]);
    await visitor.context.close();
    await admin.context.close();
  });
});
