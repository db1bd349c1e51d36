import { readFileSync } from "node:fs";
import { adminToken, createFileShare, createPaste, useAdminSession } from "./support/factories";
import { expect, test, unique } from "./support/fixtures";
import { fillEditor, visitor } from "./support/pastes";

const CURL = "curl/8.5.0";

test.describe("share access log", () => {
  test("a paste's visits show in its access log and export as CSV", async ({ page, browser, request }) => {
    const token = await adminToken(request);
    const auth = `Bearer ${token}`;
    const tag = unique("al").replace(/[^a-z0-9]/gi, "");
    const visited = await createPaste(request, auth, { content: "visited text", slug: `${tag}-seen` });

    // A visitor opens the page in a browser, and a script reads the raw text.
    const guest = await visitor(browser);
    await guest.page.goto(`/paste/${visited.slug}`);
    await expect(guest.page.getByText("visited text")).toBeVisible();
    await guest.context.close();
    const raw = await request.get(`/api/raw/${visited.slug}`, { headers: { "user-agent": CURL } });
    expect(await raw.text()).toBe("visited text");

    await useAdminSession(page, token, "/admin/text-management");
    await page.getByLabel("Search pastes").fill(tag);
    await page.getByRole("button", { name: `Access log of ${visited.slug}` }).click();
    const dialog = page.getByRole("dialog", { name: `Access log: ${visited.slug}` });
    const table = dialog.getByRole("table", { name: "Accesses" });
    await expect(table.getByRole("row")).toHaveCount(3); // header + 2
    await expect(table.getByRole("row", { name: /Raw text/ })).toContainText(
      "Command-line tool on other system",
    );
    // The browser's own description (the test browser presents itself as Chrome on Windows), and the bytes sent.
    await expect(table.getByRole("row", { name: /Page view/ })).toContainText("Chrome on Windows");
    await expect(table.getByRole("row", { name: /Page view/ })).toContainText("12 B");
    await expect(dialog.getByText("1–2 of 2 accesses")).toBeVisible();

    const [download] = await Promise.all([
      page.waitForEvent("download"),
      dialog.getByRole("button", { name: "Export CSV" }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`access-log-${visited.slug}.csv`);
    const csv = readFileSync((await download.path())!, "utf8").split("\r\n");
    expect(csv[0]).toBe("time,kind,bytes,browser,os,ip");
    expect(
      csv
        .slice(1, 3)
        .map((line) => line.split(",")[1])
        .sort(),
    ).toEqual(["page_view", "raw"]);
  });

  test("a paste nobody opened says so, and with its log off says why nothing is listed", async ({
    page,
    request,
  }) => {
    const token = await adminToken(request);
    const auth = `Bearer ${token}`;
    const tag = unique("al").replace(/[^a-z0-9]/gi, "");
    const fresh = await createPaste(request, auth, { content: "nobody came", slug: `${tag}-fresh` });
    await useAdminSession(page, token, "/admin/text-management");
    await page.getByLabel("Search pastes").fill(tag);
    await page.getByRole("button", { name: `Access log of ${fresh.slug}` }).click();
    const empty = page.getByRole("dialog", { name: `Access log: ${fresh.slug}` });
    await expect(empty.getByText("No one has opened this share yet.")).toBeVisible();
    // Turning the share's log off: visits still count, the dialog says why nothing is listed.
    await empty.getByRole("checkbox", { name: "Log accesses of this share" }).click();
    await expect(
      empty.getByText("Logging is off for this share, so its visits are counted but not listed."),
    ).toBeVisible();
    await request.get(`/api/raw/${fresh.slug}`, { headers: { "user-agent": CURL } });
    const detail = await request.get(`/api/pastes/${fresh.id}`, { headers: { Authorization: auth } });
    expect((await detail.json()).data.views).toBe(1);
    const log = await request.get(`/api/pastes/${fresh.id}/access-log`, { headers: { Authorization: auth } });
    expect((await log.json()).data.entries).toEqual([]);
  });

  test("on a phone, a file's downloads show as cards, and the dashboard sums the week", async ({
    page,
    request,
  }) => {
    const token = await adminToken(request);
    const name = `${unique("al").replace(/[^a-z0-9]/gi, "")}.txt`;
    const file = await createFileShare(request, token, name, "twelve bytes");
    const res = await request.get(`/api/file-download/${file.slug}`, { headers: { "user-agent": CURL } });
    expect(await res.text()).toBe("twelve bytes");

    await page.setViewportSize({ width: 390, height: 800 });
    await useAdminSession(page, token, "/admin/file-management");
    await page.getByLabel("Search files").fill(name);
    await page.getByRole("button", { name: `Access log of ${name}` }).click();
    const dialog = page.getByRole("dialog", { name: `Access log: ${name}` });
    const card = dialog.getByTestId("access-log-card");
    await expect(card).toHaveCount(1);
    await expect(card).toContainText("Download");
    await expect(card).toContainText("12 B");
    await expect(dialog.getByRole("table")).toBeHidden();
    await dialog.getByRole("button", { name: "Close" }).first().click();

    await page.goto("/admin");
    await expect(page.getByRole("heading", { name: "Share accesses" })).toBeVisible();
    await expect(page.getByTestId("access-summary-total")).not.toHaveText("0");
  });

  test("privacy mode set in the settings: a visit still counts, the log says why it stays empty", async ({
    page,
    request,
  }) => {
    const token = await adminToken(request);
    const auth = `Bearer ${token}`;
    const paste = await createPaste(request, auth, {
      content: "private",
      slug: unique("alp").replace(/[^a-z0-9]/gi, ""),
    });
    await useAdminSession(page, token, "/admin/settings");
    const card = page.getByRole("region", { name: "Share access log" });
    await expect(card.getByLabel("Keep entries for (days)")).toHaveValue("90");
    await card.getByRole("checkbox", { name: "Privacy mode" }).check();
    await expect(card.getByRole("checkbox", { name: "Store visitors' IP addresses" })).toBeDisabled();
    await card.getByRole("button", { name: "Save" }).click();
    await expect(page.getByText("Settings saved.").first()).toBeVisible();
    try {
      await request.get(`/api/raw/${paste.slug}`, { headers: { "user-agent": CURL } });
      await page.goto("/admin/text-management");
      await page.getByLabel("Search pastes").fill(paste.slug);
      await page.getByRole("button", { name: `Access log of ${paste.slug}` }).click();
      const dialog = page.getByRole("dialog", { name: `Access log: ${paste.slug}` });
      await expect(
        dialog.getByText("Privacy mode is on: the server keeps view counts only, no access log."),
      ).toBeVisible();
      const detail = await request.get(`/api/pastes/${paste.id}`, { headers: { Authorization: auth } });
      expect((await detail.json()).data.views).toBe(1);
    } finally {
      // Other suites share this server: logging back on.
      const res = await request.put("/api/admin/system-settings", {
        headers: { Authorization: auth },
        data: { access_log_privacy_mode: false },
      });
      expect(res.status()).toBe(200);
    }
  });
});

test("a share created from Home or the upload page with its log switched off is counted but not logged", async ({
  page,
  request,
}) => {
  const token = await adminToken(request);
  const headers = { Authorization: `Bearer ${token}` };
  const tag = unique("nolog").replace(/[^a-z0-9]/gi, "");

  await useAdminSession(page, token, "/");
  await fillEditor(page, "not for the log");
  await page.getByLabel("Custom link suffix").fill(`${tag}-paste`);
  await page.getByRole("checkbox", { name: "Log accesses of this share" }).uncheck();
  await page.getByRole("button", { name: "Create share link" }).click();
  await expect(page.getByRole("region", { name: "Share link created" })).toBeVisible();

  await page.goto("/upload");
  await page.locator('input[type="file"]').setInputFiles({
    name: `${tag}.txt`,
    mimeType: "text/plain",
    buffer: Buffer.from("not for the log either"),
  });
  await page.getByLabel("Link suffix").fill(`${tag}-file`);
  await page.getByRole("checkbox", { name: "Log accesses of this share" }).uncheck();
  await page.getByRole("button", { name: "Upload (1)" }).click();
  await expect(page.getByText("1 file · 1 uploaded · 0 failed")).toBeVisible();

  const anonymous = { "user-agent": CURL };
  expect(await (await request.get(`/api/raw/${tag}-paste`, { headers: anonymous })).text()).toBe(
    "not for the log",
  );
  expect(await (await request.get(`/api/file-download/${tag}-file`, { headers: anonymous })).text()).toBe(
    "not for the log either",
  );
  const pastes = await (await request.get(`/api/pastes?search=${tag}`, { headers })).json();
  const files = await (await request.get(`/api/files?search=${tag}`, { headers })).json();
  const paste = pastes.data.find((p: { slug: string }) => p.slug === `${tag}-paste`);
  const file = files.data.files.find((f: { slug: string }) => f.slug === `${tag}-file`);
  expect(paste.views).toBe(1);
  for (const [kind, share] of [
    ["pastes", paste],
    ["files", file],
  ] as const) {
    const log = await (await request.get(`/api/${kind}/${share.id}/access-log`, { headers })).json();
    expect(log.data, kind).toMatchObject({ logging: "share_off", entries: [] });
  }
});
