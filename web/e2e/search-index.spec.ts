import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { seriousViolations } from "./support/axe";
import { entry } from "./support/explorer";
import { adminToken, createLocalStorage, createMount, useAdminSession } from "./support/factories";
import { expect, test } from "./support/fixtures";

/**
 * The search index in the browser: the Indexes screen turns indexing on and
 * crawls a mount (progress while a throttled crawl runs, then Ready with its
 * entry count); the explorer shows a folder's size from the index and
 * searches with a filter (folders only).
 */
const run = Date.now().toString(36);

test("indexes: crawl with progress on the Indexes screen, folder sizes in the list, search with a filter", async ({
  page,
  request,
}) => {
  // Two crawls (one held to 300 entries a second) on a shared two-core machine.
  test.setTimeout(120_000);
  const token = await adminToken(request);
  const auth = { Authorization: `Bearer ${token}` };
  const config = await createLocalStorage(request, token, `index-${run}`);
  mkdirSync(join(config.root, "docs"), { recursive: true });
  mkdirSync(join(config.root, "reports", "2026"), { recursive: true });
  writeFileSync(join(config.root, "docs", "report.pdf"), "x".repeat(5000));
  writeFileSync(join(config.root, "docs", "annual-report.txt"), "y".repeat(120));
  mkdirSync(join(config.root, "bulk"));
  for (let i = 0; i < 1500; i++) writeFileSync(join(config.root, "bulk", `item-${i}.dat`), "");
  const mountPath = `/idx-${run}`;
  const mountId = await createMount(request, token, {
    name: `Indexed ${run}`,
    mount_path: mountPath,
    storage_type: "LOCAL",
    storage_config_id: config.id,
  });
  await useAdminSession(page, token, "/admin/index-management");
  try {
    await expect(page.getByRole("heading", { name: "Indexes" }).first()).toBeVisible();
    const row = page.getByRole("listitem", { name: `Indexed ${run}` });
    await expect(row).toContainText("Indexing off");
    await row.getByRole("button", { name: "Turn indexing on" }).click();
    await expect(row).toContainText("Not built yet");
    await row.getByRole("button", { name: "Crawl now" }).click();
    await expect(row).toContainText("Ready", { timeout: 30_000 });
    await expect(row.locator('[data-figure="entries"]')).toHaveText("1,506");

    // A throttled re-crawl: its progress shows while it runs, then the mount is ready again.
    const started = await request.post(`/api/admin/indexes/${mountId}/crawl`, {
      headers: auth,
      data: { max_rate: 300 },
    });
    expect(started.status(), await started.text()).toBe(202);
    await expect(row).toContainText("Crawling", { timeout: 15_000 });
    const progress = row.getByTestId("crawl-progress");
    await expect(progress.getByRole("progressbar")).toBeVisible();
    await expect(progress).toContainText(/[1-9][\d,]* entries read/);
    await expect(row).toContainText("Ready", { timeout: 30_000 });

    // Storage usage: the largest folders and files from the index, each a way into the explorer.
    await row.getByRole("button", { name: "Storage usage" }).click();
    const usage = page.getByRole("dialog", { name: `Storage usage of Indexed ${run}` });
    await expect(usage.locator('[data-figure="size"]')).toHaveText("5 KB");
    await expect(usage.locator('[data-figure="files"]')).toHaveText("1,502");
    const folders = usage.getByRole("region", { name: "Largest folders" }).getByTestId("usage-row");
    await expect(folders.first()).toContainText(`${mountPath}/docs`);
    await expect(folders.first()).toContainText("2 files");
    const files = usage.getByRole("region", { name: "Largest files" }).getByTestId("usage-row");
    await expect(files.first()).toContainText(`${mountPath}/docs/report.pdf`);
    expect(await seriousViolations(page, "storage usage")).toEqual([]);
    await files.first().getByRole("link").click();
    await expect(page).toHaveURL(new RegExp(`/mount-explorer${mountPath}/docs$`));

    // The explorer: a folder's size from the index, and a search for folders only.
    await page.goto(`/mount-explorer${mountPath}`);
    await expect(entry(page, "docs").locator('[data-folder-size="5120"]')).toHaveText("5 KB");
    // Its details: the size and counts below it, from the index.
    await entry(page, "reports").click({ button: "right" });
    await page.getByRole("menuitem", { name: "Details" }).click();
    const details = page.getByRole("dialog", { name: "Details" });
    await expect(details.locator('[data-detail="location"]')).toHaveText(`${mountPath}/reports/`);
    await expect(details.locator('[data-detail="size"]')).toHaveText("0 B");
    await expect(details.locator('[data-detail="contents"]')).toHaveText("0 files, 1 folder");
    await details.getByRole("button", { name: "Close" }).first().click();
    await entry(page, "docs").click({ button: "right" });
    await page.getByRole("menuitem", { name: "Details" }).click();
    await expect(details.locator('[data-detail="size"]')).toHaveText("5 KB");
    await expect(details.locator('[data-detail="contents"]')).toHaveText("2 files, 0 folders");
    expect(await seriousViolations(page, "entry details")).toEqual([]);
    await details.getByRole("button", { name: "Close" }).first().click();
    await page.getByRole("combobox", { name: "Search", exact: true }).fill("report");
    await page.getByRole("combobox", { name: "Search scope" }).selectOption("mount");
    await page.getByRole("combobox", { name: "Search for" }).selectOption("directory");
    await page.getByRole("button", { name: "Search", exact: true }).click();
    const results = page.getByRole("region", { name: "Search results" });
    await expect(results).toContainText("1 result for “report”");
    await expect(results.getByRole("link", { name: "reports" })).toBeVisible();
    await page.getByRole("combobox", { name: "Search for" }).selectOption("file");
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await expect(results).toContainText("2 results for “report”");
    await expect(results.getByRole("link", { name: "report.pdf" })).toBeVisible();
  } finally {
    await request.delete(`/api/admin/mounts/${mountId}`, { headers: auth });
  }
});
