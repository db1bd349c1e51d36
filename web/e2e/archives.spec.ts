import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pngImage } from "./support/explorer-images";
import { adminToken, createFileShare, createLocalMount, putFile, useAdminSession } from "./support/factories";
import { expect, test } from "./support/fixtures";

/** Looking inside ZIP and TAR.GZ files from the explorer's preview and on a share's page, without unpacking them. */
test.describe.configure({ mode: "serial" });

let token: string;
const run = Date.now().toString(36);
const NOTES = "Release notes\nline two\n";
let zipBytes: Buffer;

test.beforeAll(async ({ request }) => {
  token = await adminToken(request);
  await createLocalMount(request, token, "/arc", { name: "Archives", storageName: `arc-${run}` });
  const src = mkdtempSync(join(tmpdir(), "clipshare-e2e-archive-"));
  mkdirSync(join(src, "release", "img"), { recursive: true });
  writeFileSync(join(src, "release", "notes.txt"), NOTES);
  writeFileSync(join(src, "release", "img", "logo.png"), pngImage(24, 24, 60));
  execFileSync("zip", ["-qr", join(src, "release.zip"), "release"], { cwd: src });
  execFileSync("tar", ["-czf", join(src, "release.tar.gz"), "release"], { cwd: src });
  zipBytes = readFileSync(join(src, "release.zip"));
  await putFile(request, token, "/arc/release.zip", zipBytes);
  await putFile(request, token, "/arc/release.tar.gz", readFileSync(join(src, "release.tar.gz")));
});

for (const name of ["release.zip", "release.tar.gz"]) {
  test(`${name}: the preview lists the entries and opens one in place`, async ({ page }) => {
    await useAdminSession(page, token, `/mount-explorer/arc?preview=${encodeURIComponent(name)}`);
    const panel = page.getByTestId("archive-preview");
    await expect(panel.getByTestId("archive-summary")).toHaveText(/^2 entries, /);
    await expect(panel.getByText("release/notes.txt")).toBeVisible();
    await expect(panel.getByText("release/img/logo.png")).toBeVisible();
    await panel.getByRole("button", { name: "Open release/notes.txt" }).click();
    await expect(panel.getByTestId("archive-opened")).toContainText("line two");
    await panel.getByRole("button", { name: "Open release/img/logo.png" }).click();
    await expect(panel.getByRole("img", { name: "release/img/logo.png" })).toBeVisible();
    await panel.getByLabel("Filter entries").fill("notes");
    await expect(panel.getByText("release/img/logo.png", { exact: true })).toHaveCount(1); // only the opened image's caption
    const download = page.waitForEvent("download");
    await panel.getByRole("button", { name: "Download release/notes.txt" }).click();
    const saved = await download;
    expect(saved.suggestedFilename()).toBe("notes.txt");
    expect(readFileSync((await saved.path())!, "utf8")).toBe(NOTES);
  });
}

test("in Chinese the archive panel speaks Chinese", async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem("language", "zh"));
  await useAdminSession(page, token, "/mount-explorer/arc?preview=release.zip");
  await expect(page.getByTestId("archive-summary")).toHaveText(/^共 2 项，解压后/);
});

test("a shared ZIP: a visitor of its page sees the entries and opens one, on a one-view share", async ({
  page,
  request,
}) => {
  // The page takes the one view; the entries are read under its access token.
  const { slug } = await createFileShare(request, token, `release-${run}.zip`, zipBytes, { max_views: 1 });
  await page.goto(`/file/${slug}`);
  const panel = page.getByTestId("archive-preview");
  await expect(panel.getByTestId("archive-summary")).toHaveText(/^2 entries, /);
  await panel.getByRole("button", { name: "Open release/notes.txt" }).click();
  await expect(panel.getByTestId("archive-opened")).toContainText("line two");
});
