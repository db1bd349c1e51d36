import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "@playwright/test";
import { seriousViolations } from "./support/axe";
import { entry } from "./support/explorer";
import { adminToken, useAdminSession } from "./support/factories";
import { expect, test } from "./support/fixtures";
import { type RemoteLogin, remoteEnv } from "./support/remote-env";

/**
 * WebDAV and SFTP storage set up by an admin in the browser: storage configs
 * through the form (presets, connection test, the SFTP host key pinned), a mount on each, a folder
 * uploaded into SFTP, copied to WebDAV by the explorer (a task) and downloaded
 * from there as a ZIP whose entries are byte-identical to the uploaded files.
 */
const run = Date.now().toString(36);

/** The uploaded folder: a file, and a sub-folder with text and binary content. */
const FILES: Record<string, Buffer> = {
  "cover.txt": Buffer.from("cover page\n"),
  "2026/june.txt": Buffer.from("june notes ✓\n"),
  "2026/pixels.bin": randomBytes(48 * 1024),
};

async function addRemoteStorage(
  page: Page,
  type: "WEBDAV" | "SFTP",
  name: string,
  login: RemoteLogin,
  preset: { name: string; placeholder: RegExp; note: RegExp },
) {
  await page.getByRole("button", { name: "Add storage" }).click();
  const dialog = page.getByRole("dialog", { name: "Add storage configuration" });
  await dialog.getByLabel("Storage type").selectOption(type);
  // A preset shows where such a server keeps its files.
  await dialog.getByLabel("Preset").selectOption(preset.name);
  await expect(dialog.getByLabel("Server address")).toHaveAttribute("placeholder", preset.placeholder);
  await expect(dialog.getByText(preset.note)).toBeVisible();
  await dialog.getByLabel("Preset").selectOption(type === "SFTP" ? "Other SFTP" : "Other WebDAV");
  expect(await seriousViolations(page, `storage form ${type}`)).toEqual([]);
  await dialog.getByLabel("Name", { exact: true }).fill(name);
  await dialog.getByLabel("Server address").fill(login.endpoint);
  await dialog.getByLabel("User name").fill(login.username);
  await dialog.getByLabel("Password", { exact: true }).fill(login.password);
  await dialog.getByLabel("Folder on the server").fill(`e2e-${run}`);
  await dialog.getByRole("button", { name: "Add storage" }).click();
  await expect(dialog).toBeHidden();

  // The connection test: write, read and list pass; presigned URLs and CORS do not apply.
  const item = page.getByRole("listitem", { name });
  await expect(item).toContainText(type === "SFTP" ? "SFTP server" : "WebDAV server");
  await expect(item).toContainText(`Server address${login.endpoint.replace(/\/$/, "")}`);
  await item.getByRole("button", { name: `Test ${name}` }).click();
  const results = page.getByRole("dialog", { name: `Test "${name}"` });
  await expect(results.getByText("All checks passed.")).toBeVisible({ timeout: 15_000 });
  for (const check of ["Write", "Read", "List"])
    await expect(results.getByRole("listitem", { name: check })).toHaveAttribute("data-state", "passed");
  expect(await seriousViolations(page, `storage test ${type}`)).toEqual([]);
  if (type !== "SFTP") {
    await results.getByRole("button", { name: "Close" }).last().click();
    return;
  }
  // SFTP: the test shows the server's host key; pinned through the form, the test still passes.
  const hostKey = (await results.getByTestId("host-key").textContent()) ?? "";
  expect(hostKey).toMatch(/^SHA256:[A-Za-z0-9+/]{43}$/);
  await results.getByRole("button", { name: "Close" }).last().click();
  await item.getByRole("button", { name: `Edit ${name}` }).click();
  const edit = page.getByRole("dialog", { name: "Edit storage configuration" });
  await edit.getByLabel("Host key (SHA-256)").fill("SHA256:not-a-key");
  await edit.getByRole("button", { name: "Save" }).click();
  await expect(edit.getByText("Enter SHA256: and 43 characters")).toBeVisible();
  await edit.getByLabel("Host key (SHA-256)").fill(hostKey);
  await edit.getByRole("button", { name: "Save" }).click();
  await expect(edit).toBeHidden();
  await item.getByRole("button", { name: `Test ${name}` }).click();
  await expect(results.getByText("All checks passed.")).toBeVisible({ timeout: 15_000 });
  await expect(results.getByTestId("host-key")).toHaveText(hostKey);
  await results.getByRole("button", { name: "Close" }).last().click();
}

async function addMount(page: Page, type: "WEBDAV" | "SFTP", config: string, mountPath: string) {
  await page.getByRole("button", { name: "New mount" }).click();
  const dialog = page.getByRole("dialog", { name: "New mount" });
  await dialog.getByLabel("Name", { exact: true }).fill(mountPath.slice(1));
  await dialog.getByLabel("Mount path").fill(mountPath);
  await dialog.getByLabel("Storage type").selectOption(type);
  await dialog.getByLabel("Storage config").selectOption({ label: config });
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.locator(`tr[data-row="${mountPath}"]`)).toBeVisible();
}

test("SFTP and WebDAV from the admin UI: folder upload, copy across, ZIP byte-identical", async ({
  page,
  request,
}) => {
  const servers = remoteEnv();
  test.skip(!servers, "WebDAV/SFTP test services not configured (source .tmp/services.env)");
  const { sftp, webdav } = servers!;
  const token = await adminToken(request);
  const sftpName = `SFTP ${run}`;
  const davName = `WebDAV ${run}`;
  const sftpMount = `/sftp-${run}`;
  const davMount = `/dav-${run}`;

  await useAdminSession(page, token, "/admin/storage-config");
  await addRemoteStorage(page, "SFTP", sftpName, sftp, {
    name: "Hetzner Storage Box",
    placeholder: /your-storagebox\.de:23/,
    note: /SFTP listens on port 23/,
  });
  await addRemoteStorage(page, "WEBDAV", davName, webdav, {
    name: "Nextcloud",
    placeholder: /remote\.php\/dav\/files\//,
    note: /app password/,
  });

  await page.goto("/admin/mount-management");
  await addMount(page, "SFTP", sftpName, sftpMount);
  await addMount(page, "WEBDAV", davName, davMount);

  // Upload a folder into the SFTP mount through the folder picker.
  const picked = mkdtempSync(join(tmpdir(), "clipshare-e2e-remote-"));
  try {
    for (const [file, bytes] of Object.entries(FILES)) {
      mkdirSync(join(picked, "album", file, ".."), { recursive: true });
      writeFileSync(join(picked, "album", file), bytes);
    }
    await page.goto(`/mount-explorer${sftpMount}`);
    const chooser = page.waitForEvent("filechooser");
    await page.getByRole("button", { name: "Upload folder" }).click();
    await (await chooser).setFiles(join(picked, "album"));
    await expect(page.getByTestId("upload-panel").locator('[data-status="done"]')).toHaveCount(3, {
      timeout: 15_000,
    });
    await expect(entry(page, "album")).toBeVisible();

    // Copy it to the WebDAV mount: across storages, so it runs as a task.
    await entry(page, "album").click({ button: "right" });
    await page.getByRole("menuitem", { name: "Copy to…" }).click();
    const picker = page.getByRole("dialog", { name: "Copy 1 item" });
    await picker.getByRole("button", { name: "All mounts" }).click();
    await picker.getByRole("button", { name: davMount.slice(1), exact: true }).click();
    await expect(picker.getByTestId("picker-path")).toHaveText(davMount);
    await picker.getByRole("button", { name: "Copy here" }).click();
    const task = page.getByTestId("task-panel").locator('[data-task-type="copy"]').first();
    await expect(task).toHaveAttribute("data-task-status", "completed", { timeout: 20_000 });
    await expect(task).toContainText("3/3");

    // Download the copy as a ZIP from the WebDAV mount.
    await page.goto(`/mount-explorer${davMount}`);
    await entry(page, "album").click({ button: "right" });
    const downloading = page.waitForEvent("download");
    await page.getByRole("menuitem", { name: "Download as ZIP" }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe("album.zip");
    const zipPath = join(picked, "album.zip");
    await download.saveAs(zipPath);
    const out = join(picked, "out");
    execFileSync("unzip", ["-q", zipPath, "-d", out]);
    const files = execFileSync("unzip", ["-Z1", zipPath])
      .toString()
      .trim()
      .split("\n")
      .filter((name) => !name.endsWith("/"))
      .sort();
    expect(files).toEqual(
      Object.keys(FILES)
        .map((f) => `album/${f}`)
        .sort(),
    );
    for (const [file, bytes] of Object.entries(FILES))
      expect(readFileSync(join(out, "album", file)).equals(bytes), file).toBe(true);
  } finally {
    rmSync(picked, { recursive: true, force: true });
  }
});

test("the SFTP storage form fits a phone, in Chinese too", async ({ page, request }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const token = await adminToken(request);
  await useAdminSession(page, token, "/admin/storage-config");
  await page.evaluate(() => localStorage.setItem("language", "zh"));
  await page.reload();
  await page.getByRole("button", { name: "添加存储" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("存储类型").selectOption("SFTP");
  await dialog.getByLabel("预设").selectOption("Hetzner Storage Box");
  await expect(dialog.getByText(/23 端口/)).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  for (const field of ["服务器地址", "用户名", "密码"]) {
    const box = (await dialog.getByLabel(field, { exact: true }).boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
  }
  expect(await seriousViolations(page, "storage form SFTP phone zh")).toEqual([]);
});
