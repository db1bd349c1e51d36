import type { Browser, Page } from "@playwright/test";
import { seriousViolations } from "./support/axe";
import { entry } from "./support/explorer";
import { adminToken, createLocalMount, putFile, useAdminSession } from "./support/factories";
import { expect, test, unique } from "./support/fixtures";

/**
 * Collections end to end, on the shared server: the admin selects a file and a folder in the
 * explorer and shares them as one link with a view limit of one; a visitor without
 * credentials opens it, previews a file, downloads one and the ZIP of all, browses the folder
 * and reloads the page, all in the one counted view; the next visitor finds it used up.
 */

/** A page in a fresh browser context: no token, no key, nothing stored. */
async function visitorPage(browser: Browser, baseURL: string | undefined): Promise<Page> {
  const context = await browser.newContext({ baseURL, acceptDownloads: true });
  return context.newPage();
}

test("files and a folder shared from the explorer as one link: one view per visit", async ({
  browser,
  page,
  request,
  baseURL,
}) => {
  const token = await adminToken(request);
  const tag = unique("col").replace(/[^a-z0-9-]/gi, "");
  await createLocalMount(request, token, `/${tag}`, { name: tag, storageName: tag });
  await putFile(request, token, `/${tag}/notes.txt`, "shared notes\n");
  await putFile(request, token, `/${tag}/photos/a.txt`, "inside the folder\n");
  await putFile(request, token, `/${tag}/photos/b.txt`, "another one\n");

  // The admin selects the file and the folder and shares both under one link.
  await useAdminSession(page, token, `/mount-explorer/${tag}`);
  await entry(page, "notes.txt").click();
  await entry(page, "photos").click({ modifiers: ["ControlOrMeta"] });
  await page.getByTestId("selection-bar").getByRole("button", { name: "Share as one link" }).click();
  const dialog = page.getByRole("dialog", { name: "Share as one link" });
  await dialog.getByLabel("Title").fill("Trip");
  await dialog.getByLabel("Max views").fill("1");
  await dialog.getByRole("button", { name: "Create link" }).click();
  const link = await dialog.getByTestId("created-share-link").inputValue();
  expect(link).toMatch(/\/c\/[A-Za-z0-9]+$/);

  const visitor = await visitorPage(browser, baseURL);
  await visitor.goto(new URL(link).pathname);
  await expect(visitor.getByRole("heading", { name: "Trip" })).toBeVisible();
  const rows = visitor.getByTestId("collection-entries");
  await expect(rows.getByRole("button", { name: "notes.txt", exact: true })).toBeVisible();
  expect(await seriousViolations(visitor, "collection page")).toEqual([]);

  // Preview a file, download it, download everything.
  await visitor.getByRole("button", { name: "Preview notes.txt" }).click();
  const preview = visitor.getByRole("dialog", { name: "notes.txt" });
  await expect(preview.getByText("shared notes")).toBeVisible();
  await preview.getByRole("button", { name: "Close" }).first().click();
  const [single] = await Promise.all([
    visitor.waitForEvent("download"),
    visitor.getByRole("link", { name: "Download notes.txt" }).click(),
  ]);
  expect(single.suggestedFilename()).toBe("notes.txt");
  const [zip] = await Promise.all([
    visitor.waitForEvent("download"),
    visitor.getByRole("link", { name: "Download all (ZIP)" }).click(),
  ]);
  expect(zip.suggestedFilename()).toBe("Trip.zip");

  // Into the folder item, then a reload: still the same visit.
  await rows.getByRole("button", { name: "photos", exact: true }).click();
  await expect(rows.getByRole("button", { name: "b.txt", exact: true })).toBeVisible();
  await visitor.reload();
  await expect(visitor.getByRole("heading", { name: "Trip" })).toBeVisible();
  const listed = await request.get(`/api/collections?search=Trip`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  const mine = (await listed.json()).data.collections.find((c: { url: string }) => link.endsWith(c.url));
  expect(mine.views).toBe(1);

  // The next visitor: the only view is gone.
  const next = await visitorPage(browser, baseURL);
  await next.goto(new URL(link).pathname);
  await expect(
    next.getByRole("heading", { name: "This collection has reached its view limit" }),
  ).toBeVisible();
});
