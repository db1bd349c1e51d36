import { seriousViolations } from "./support/axe";
import { epubBook } from "./support/epub";
import { adminToken, createFileShare, createLocalMount, putFile, useAdminSession } from "./support/factories";
import { expect, test } from "./support/fixtures";

/** EPUB books open in a reader view (foliate-js, loaded only then) in the explorer and on a share's page. */
test.describe.configure({ mode: "serial" });

let token: string;
let book: Buffer;
const run = Date.now().toString(36);

test.beforeAll(async ({ request }) => {
  token = await adminToken(request);
  book = epubBook("The Clipboard Chronicles", [
    { heading: "Chapter One", text: "It was a bright cold day, and the clipboard was empty." },
    { heading: "Chapter Two", text: "Then somebody pasted a link." },
  ]);
  await createLocalMount(request, token, `/books-${run}`, { name: "Books", storageName: `books-${run}` });
  await putFile(request, token, `/books-${run}/chronicles.epub`, book);
});

test("an EPUB opens in the explorer's reader, and pages turn", async ({ page }) => {
  const reader = page.getByTestId("epub-reader");
  // The reader's library is not part of the explorer: it comes with the first book.
  const loaded: string[] = [];
  page.on("request", (r) => loaded.push(r.url()));
  await useAdminSession(page, token, `/mount-explorer/books-${run}`);
  await expect(page.locator('[data-entry="chronicles.epub"]')).toBeVisible();
  const beforeBook = loaded.length;
  await page.goto(`/mount-explorer/books-${run}?preview=chronicles.epub`);
  await expect(reader.getByTestId("epub-title")).toHaveText("The Clipboard Chronicles");
  await expect(reader.getByTestId("epub-chapter")).toHaveText("Chapter One");
  await reader.getByRole("button", { name: "Next page" }).click();
  await expect(reader.getByTestId("epub-chapter")).toHaveText("Chapter Two");
  expect(loaded.slice(0, beforeBook).some((u) => /\/assets\/(epub-reader|view)-[\w-]+\.js/.test(u))).toBe(
    false,
  );
  expect(loaded.some((u) => /\/assets\/view-[\w-]+\.js/.test(u))).toBe(true);
  expect(await seriousViolations(page, "EPUB reader")).toEqual([]);
});

test("a shared EPUB opens on its page for a visitor", async ({ page, request }) => {
  const { slug } = await createFileShare(request, token, `chronicles-${run}.epub`, book);
  await page.goto(`/file/${slug}`);
  const reader = page.getByTestId("epub-reader");
  await expect(reader.getByTestId("epub-title")).toHaveText("The Clipboard Chronicles");
  await expect(reader.getByTestId("epub-progress")).toBeVisible();
});
