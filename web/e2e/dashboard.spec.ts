import type { APIRequestContext, Page } from "@playwright/test";
import { startTestServer } from "./global-setup";
import { seriousViolations } from "./support/axe";
import { adminToken, createFileShare, createPaste, createS3Config } from "./support/factories";
import { test as base, expect, setTheme, unique } from "./support/fixtures";
import { s3Env, servicesRequired } from "./support/s3-env";

/**
 * The admin dashboard against a server of its own, so "fresh install" really is one: the
 * figures on screen must equal what GET /api/admin/dashboard/stats reports, before and after
 * pastes and files are created, in both languages and themes, and the screen fits a phone.
 */
const test = base.extend<{ token: string }, { freshServer: { baseUrl: string } }>({
  freshServer: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright needs the destructuring pattern.
    async ({}, use) => {
      const server = await startTestServer({ logName: "e2e-dashboard-server.log" });
      await use({ baseUrl: server.baseUrl });
      await server.stop();
    },
    { scope: "worker" },
  ],
  baseURL: async ({ freshServer }, use) => use(freshServer.baseUrl),
  token: async ({ request }, use) => use(await adminToken(request)),
});

interface Stats {
  totalPastes: number;
  totalFiles: number;
  totalApiKeys: number;
  totalS3Configs: number;
  totalMounts: number;
  s3Buckets: { id: string; name: string; fileCount: number; usedStorage: number; usagePercent: number }[];
  days: string[];
  lastWeekPastes: number[];
  lastWeekFiles: number[];
  recentShares: { type: string; slug: string; title: string | null }[];
}

async function apiStats(request: APIRequestContext, token: string): Promise<Stats> {
  const res = await request.get("/api/admin/dashboard/stats", {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(res.status()).toBe(200);
  return (await res.json()).data as Stats;
}

async function openDashboard(
  page: Page,
  token: string,
  prefs: { language: "en" | "zh"; theme: "light" | "dark" },
) {
  await page.goto("/");
  await page.evaluate(
    ({ token, language, theme }) => {
      localStorage.setItem("admin_token", token);
      localStorage.setItem("language", language);
      localStorage.setItem("themeMode", theme);
    },
    { token, ...prefs },
  );
  // The admin panel opens on the dashboard.
  await page.goto("/admin");
  await expect(page.locator("html")).toHaveAttribute("data-theme", prefs.theme);
  await expect(
    page.getByRole("heading", { level: 2, name: prefs.language === "en" ? "Dashboard" : "仪表盘" }),
  ).toBeVisible();
  await expect(page.getByTestId("count-pastes")).toBeVisible();
}

/** The four totals on screen, read from the tiles. */
async function shownCounts(page: Page) {
  const value = async (id: string) =>
    Number(await page.getByTestId(`count-${id}`).locator("[data-value]").textContent());
  return {
    totalPastes: await value("pastes"),
    totalFiles: await value("files"),
    totalApiKeys: await value("api-keys"),
    totalS3Configs: await value("storage-configs"),
  };
}

/** The activity table (the chart's text alternative), day by day. */
async function shownActivity(page: Page) {
  const rows = page.getByTestId("activity-table").locator("tbody tr");
  await expect(rows).toHaveCount(7);
  const out: { date: string; pastes: number; files: number }[] = [];
  for (const row of await rows.all()) {
    const cells = row.locator("td");
    out.push({
      date: (await row.getAttribute("data-date")) ?? "",
      pastes: Number(await cells.nth(0).textContent()),
      files: Number(await cells.nth(1).textContent()),
    });
  }
  return out;
}

async function expectMatchesApi(page: Page, stats: Stats) {
  expect(await shownCounts(page)).toEqual({
    totalPastes: stats.totalPastes,
    totalFiles: stats.totalFiles,
    totalApiKeys: stats.totalApiKeys,
    totalS3Configs: stats.totalS3Configs,
  });
  expect(await shownActivity(page)).toEqual(
    stats.days.map((date, i) => ({ date, pastes: stats.lastWeekPastes[i], files: stats.lastWeekFiles[i] })),
  );
  // The chart draws one group of bars per day.
  await expect(page.getByTestId("activity-chart").locator("svg g[data-date]")).toHaveCount(7);
  await expect(page.getByTestId("storage-row")).toHaveCount(stats.s3Buckets.length);
  await expect(page.getByTestId("recent-share")).toHaveCount(stats.recentShares.length);
}

async function expectNoSidewaysScroll(page: Page) {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow, "horizontal scroll in px").toBeLessThanOrEqual(0);
}

test.describe.configure({ mode: "serial" });

test("a fresh install shows real zeros and what to do next", async ({ page, request, token }) => {
  const stats = await apiStats(request, token);
  expect(stats).toMatchObject({ totalPastes: 0, totalFiles: 0, totalMounts: 0 });
  await openDashboard(page, token, { language: "en", theme: "light" });
  await expectMatchesApi(page, stats);

  await expect(page.getByTestId("activity-summary")).toHaveText("Nothing was created this week yet.");
  const recent = page.getByRole("region", { name: "Recent shares" });
  await expect(recent).toContainText("Nothing has been shared yet.");
  await expect(recent.getByRole("link", { name: "Create a paste" })).toHaveAttribute("href", "/");
  await expect(recent.getByRole("link", { name: "Upload a file" })).toHaveAttribute("href", "/upload");

  const start = page.getByRole("region", { name: "Get started" });
  await expect(start.getByRole("link")).toHaveText([
    "Create a mount to browse storage in the file explorer",
    "Upload a file and share its link",
    "Create a text paste on the home page",
  ]);
  // The default local storage counts 0 files and has no quota.
  await expect(page.getByTestId("storage-usage").first()).toContainText("0 files · 0 B · No quota");
  const caches = page.getByRole("region", { name: "Explorer caches" });
  await expect(caches.getByRole("listitem")).toHaveCount(3);
  await expect(caches.getByRole("listitem", { name: "Directory listings" })).toContainText("Hit rate0%");

  await start.getByRole("link", { name: /Create a mount/ }).click();
  await expect(page).toHaveURL(/\/admin\/mount-management$/);

  // The empty states of a fresh install with no mount read well in the dark theme too.
  await page.evaluate(() => localStorage.setItem("themeMode", "dark"));
  await page.reload();
  await expect(page.locator("html")).toHaveClass(/dark/);
  await expect(page.getByText("No mounts yet", { exact: false })).toBeVisible();
  expect(await seriousViolations(page, "mount management, no mount, dark")).toEqual([]);
  await page.goto("/mount-explorer");
  await expect(page.getByRole("main")).toContainText("No mounts");
  expect(await seriousViolations(page, "explorer, no mount, dark")).toEqual([]);
  await page.evaluate(() => localStorage.setItem("themeMode", "light"));
});

test("after activity the figures follow the API, in Chinese and dark", async ({ page, request, token }) => {
  const auth = `Bearer ${token}`;
  await createPaste(request, auth, { content: "first" });
  await createPaste(request, auth, { content: "second" });
  const secret = await createPaste(request, auth, {
    content: "secret",
    remark: "Meeting notes",
    password: "pw-12345",
  });
  await createFileShare(request, token, "report.txt", "x".repeat(2048));
  const stats = await apiStats(request, token);
  expect(stats).toMatchObject({ totalPastes: 3, totalFiles: 1 });

  await openDashboard(page, token, { language: "zh", theme: "dark" });
  await expectMatchesApi(page, stats);
  await expect(page.getByTestId("activity-summary")).toHaveText(
    "最近 7 天（按 UTC 日期）共创建 3 条文本和 1 个文件。",
  );

  const recent = page.getByTestId("recent-share");
  await expect(recent.first().getByRole("link")).toHaveText("report.txt");
  const notes = recent.filter({ hasText: "Meeting notes" });
  await expect(notes).toContainText("密码");
  await expect(notes.getByRole("link", { name: "Meeting notes" })).toHaveAttribute(
    "href",
    `/paste/${secret.slug}`,
  );

  // Only the mount step is left; storage shows the uploaded file.
  await expect(page.getByRole("region", { name: "开始使用" }).getByRole("link")).toHaveText([
    "创建挂载点，在文件浏览器中浏览存储",
  ]);
  await expect(page.getByTestId("storage-usage").first()).toContainText("1 个文件 · 2 KB");

  await page.getByRole("button", { name: "清除全部缓存" }).click();
  await expect(page.getByText(/^已清除 \d+ 条缓存$/)).toBeVisible();

  // Back from another module, the figures are fresh: a paste created meanwhile is counted.
  await createPaste(request, auth, { content: "while away" });
  const panel = page.getByRole("navigation", { name: "面板栏目" });
  await panel.getByRole("link", { name: "文本管理" }).click();
  await expect(page).toHaveURL(/\/admin\/text-management$/);
  await panel.getByRole("link", { name: "仪表盘" }).click();
  await expect(page.getByTestId("count-pastes").locator("[data-value]")).toHaveText("4");
  await expectMatchesApi(page, await apiStats(request, token));

  // In English the week's summary uses singular and plural forms.
  await page.evaluate(() => localStorage.setItem("language", "en"));
  await page.reload();
  await expect(page.getByTestId("activity-summary")).toHaveText(
    "4 pastes and 1 file created in the last 7 days (UTC days).",
  );
  await expect(page.getByTestId("storage-usage").first()).toContainText("1 file · 2 KB");
});

test("at 1366 px the cards fill two columns from the top, with no hole beside a short card", async ({
  page,
  request,
  token,
}) => {
  await createPaste(request, `Bearer ${token}`, { content: "for the recent list" });
  await page.setViewportSize({ width: 1366, height: 900 });
  await openDashboard(page, token, { language: "en", theme: "light" });
  const cards = page.getByTestId("dashboard-cards").locator(":scope > *");
  await expect(cards).toHaveCount(5);
  await expect(page.getByTestId("activity-chart")).toBeVisible();
  const boxes = await cards.evaluateAll((els) =>
    els.map((el) => {
      const r = el.getBoundingClientRect();
      return { left: Math.round(r.left), top: r.top, bottom: r.bottom };
    }),
  );
  const columns = [...new Set(boxes.map((b) => b.left))];
  expect(columns).toHaveLength(2);
  for (const left of columns) {
    const column = boxes.filter((b) => b.left === left).sort((a, b) => a.top - b.top);
    // Each card starts right under the one above it (the 16 px gap), never further down.
    for (let i = 1; i < column.length; i++)
      expect(column[i]!.top - column[i - 1]!.bottom).toBeLessThanOrEqual(20);
  }
});

for (const width of [390, 820]) {
  test(`fits ${width} px without sideways scrolling, in both languages and themes`, async ({
    page,
    request,
    token,
  }) => {
    await page.setViewportSize({ width, height: 900 });
    const stats = await apiStats(request, token);
    for (const prefs of [
      { language: "en", theme: "light" },
      { language: "zh", theme: "dark" },
    ] as const) {
      await openDashboard(page, token, prefs);
      await expectMatchesApi(page, stats);
      await page.getByTestId("activity-chart").scrollIntoViewIfNeeded();
      await expectNoSidewaysScroll(page);
      // The chart is drawn at the card's width, not wider.
      const chart = await page.getByTestId("activity-chart").locator("svg").boundingBox();
      expect(chart?.width ?? 0).toBeLessThanOrEqual(width);
      // The cache figures' labels stay on one line (three columns in a narrow card wrapped them).
      for (const label of await page.locator('[aria-labelledby="dashboard-cache-title"] dt').all()) {
        expect(
          (await label.boundingBox())?.height ?? 0,
          (await label.textContent()) ?? "label",
        ).toBeLessThanOrEqual(20);
      }
    }
    await setTheme(page, "light");
  });
}

test("an S3 bucket shows its usage against its quota, as the API counts it", async ({
  page,
  request,
  token,
}) => {
  const s3 = s3Env();
  test.skip(s3 === null && !servicesRequired(), "S3 test service not configured (source .tmp/services.env)");
  if (!s3) throw new Error("CLIPSHARE_TEST_S3_* is not set; start scripts/test-services/start.sh");
  const auth = { Authorization: `Bearer ${token}` };
  const name = unique("Swift dashboard");
  // A 1 MiB quota, so a 300 KiB file fills about 29% of it.
  const configId = (await createS3Config(request, token, unique("e2e-dashboard"), {
    name,
    total_storage_bytes: 1024 * 1024,
  }))!.id;
  try {
    await createFileShare(request, token, "bucket.bin", "b".repeat(300 * 1024), { s3_config_id: configId });
    const bucket = (await apiStats(request, token)).s3Buckets.find((b) => b.id === configId);
    expect(bucket).toMatchObject({ fileCount: 1, usedStorage: 300 * 1024, usagePercent: 29 });

    await openDashboard(page, token, { language: "en", theme: "light" });
    const row = page.getByRole("listitem", { name });
    await expect(row).toContainText(`Other S3 Compatible · Bucket ${s3.bucket}`);
    await expect(row.getByTestId("storage-usage")).toHaveText("1 file · 300 KB · 29% of 1 MB");
    await expect(row.getByRole("meter", { name: `Quota used by ${name}` })).toHaveAttribute(
      "aria-valuenow",
      String(bucket?.usagePercent),
    );
    await row.getByRole("button", { name: `Clear cache: explorer cache of ${name}` }).click();
    await expect(page.getByText(/^Cleared \d+ cached items?$/)).toBeVisible();
  } finally {
    // Remove the object from the shared test bucket, then the config.
    const files = await (await request.get("/api/files?limit=100", { headers: auth })).json();
    const ids = (files.data?.files ?? [])
      .filter((f: { storage_config_id: string }) => f.storage_config_id === configId)
      .map((f: { id: string }) => f.id);
    if (ids.length > 0) await request.delete("/api/files/batch-delete", { headers: auth, data: { ids } });
    await request.delete(`/api/s3-configs/${configId}`, { headers: auth });
  }
});
