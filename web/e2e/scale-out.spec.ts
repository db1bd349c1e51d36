import { RIG_ADMIN, type Rig, rigMissing, startRig } from "../../scripts/scale-out/rig.mjs";
import { dropFolder, entry, readFile } from "./support/explorer";
import { adminToken, createMount, createS3Config, useAdminSession } from "./support/factories";
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
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
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

  test("the explorer on an S3 mount: a dropped folder uploads, reads back and a rename shows on both instances", async ({
    browser,
    playwright,
  }) => {
    const base = rig!.url;
    const api = await playwright.request.newContext({ baseURL: base });
    const token = await adminToken(api, RIG_ADMIN.password);
    const config = await createS3Config(api, token, unique("lb-explorer"));
    expect(config, "the S3 test service is configured").not.toBeNull();
    const name = unique("lb-s3")
      .replace(/[^a-z0-9-]/gi, "")
      .toLowerCase();
    await createMount(api, token, {
      name: "Balanced S3",
      mount_path: `/${name}`,
      storage_type: "S3",
      storage_config_id: config!.id,
    });

    const served = new Set<string>();
    const context = await browser.newContext({ baseURL: base, locale: "en-US" });
    context.on("response", (r) => {
      const instance = r.headers()["x-clipshare-instance"];
      if (instance) served.add(instance);
    });
    const page = await context.newPage();
    const guard = new ConsoleGuard();
    guard.watch(page);
    await useAdminSession(page, token, `/mount-explorer/${name}`);
    await dropFolder(page, page.getByTestId("drop-zone"), "album", {
      "a.txt": "alpha",
      "sub/b.txt": "bravo",
      "sub/deeper/c.txt": "charlie",
    });
    await expect(page.getByTestId("upload-panel").locator('[data-status="done"]')).toHaveCount(3);
    await expect(entry(page, "album")).toBeVisible();
    expect((await readFile(api, token, `/${name}/album/sub/deeper/c.txt`)).toString()).toBe("charlie");

    await entry(page, "album").click({ button: "right" });
    await page.getByRole("menuitem", { name: "Rename" }).click();
    const rename = page.getByRole("dialog", { name: "Rename" });
    await rename.getByLabel("Name").fill("album-2026");
    await rename.getByRole("button", { name: "Rename" }).click();
    await expect(entry(page, "album-2026")).toBeVisible();

    // Listings from the directory cache of each instance: both drop the old name (the rename went to one).
    const listed = new Map<string, string[]>();
    await expect
      .poll(
        async () => {
          const res = await api.get(`/api/fs/list?path=${encodeURIComponent(`/${name}`)}`, {
            headers: { Authorization: `Bearer ${token}` },
          });
          const names = ((await res.json()).data.items as { name: string }[]).map((i) => i.name);
          listed.set(res.headers()["x-clipshare-instance"] ?? "?", names);
          return [...listed.entries()].filter(([, n]) => n.includes("album-2026") && !n.includes("album"))
            .length;
        },
        { timeout: 10_000 },
      )
      .toBe(2);
    expect([...served].sort()).toEqual(["a", "b"]);
    expect(guard.unexpected(), "console errors").toEqual([]);
    await context.close();
    await api.dispose();
  });
});
