import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Page } from "@playwright/test";
import { adminToken, createPaste, useAdminSession } from "./support/factories";
import { expect, test } from "./support/fixtures";

/** Where the build put the admin texts of each language (read from its manifest). */
function adminTextFiles(): { en: string; zh: string } {
  const manifestFile = fileURLToPath(new URL("../dist/.vite/manifest.json", import.meta.url));
  const manifest = JSON.parse(readFileSync(manifestFile, "utf8")) as Record<string, { file: string }>;
  const fileOf = (lang: string) => `/${manifest[`src/i18n/locales/admin/${lang}.json`]!.file}`;
  return { en: fileOf("en"), zh: fileOf("zh") };
}

/** Paths of the scripts the page has asked for so far. */
function scriptsFetched(page: Page): Set<string> {
  const paths = new Set<string>();
  page.on("request", (request) => {
    if (request.resourceType() === "script") paths.add(new URL(request.url()).pathname);
  });
  return paths;
}

test.describe("admin texts", () => {
  test("a visitor's pages never fetch them, in either language", async ({ page, request }) => {
    const token = await adminToken(request);
    const paste = await createPaste(request, `Bearer ${token}`, {
      content: "Room 4, 10:00",
      format: "plain",
    });
    const fetched = scriptsFetched(page);

    await page.goto("/");
    await expect(page.getByRole("textbox", { name: "Content" })).toBeVisible();
    await page.goto(`/paste/${paste.slug}`);
    await expect(page.getByText("Room 4, 10:00")).toBeVisible();
    await page.getByRole("button", { name: "Switch language to 中文" }).click();
    await expect(page.getByRole("button", { name: "切换语言为 English" })).toBeVisible();
    await page.waitForLoadState("networkidle");

    const admin = adminTextFiles();
    expect([...fetched].filter((path) => path === admin.en || path === admin.zh)).toEqual([]);
  });

  test("an admin page renders with them and follows a language switch", async ({ page, request }) => {
    const token = await adminToken(request);
    const fetched = scriptsFetched(page);
    await useAdminSession(page, token, "/admin/settings");

    const uploads = page.getByRole("region", { name: "Uploads" });
    await expect(uploads.getByLabel("Maximum upload size")).toBeVisible();
    const admin = adminTextFiles();
    expect(fetched.has(admin.en)).toBe(true);
    expect(fetched.has(admin.zh)).toBe(false);

    await page.getByRole("button", { name: "Switch language to 中文" }).click();
    await expect(page.getByRole("region", { name: "上传" }).getByLabel("最大上传大小")).toBeVisible();
    expect(fetched.has(admin.zh)).toBe(true);
    // No text of the page shows as its key while or after the language changes.
    await expect(page.locator("main")).not.toContainText(/\b(settings|settingsPage|admin)\.\w+/);

    await page.getByRole("button", { name: "切换语言为 English" }).click();
    await expect(uploads.getByLabel("Maximum upload size")).toBeVisible();
  });
});
