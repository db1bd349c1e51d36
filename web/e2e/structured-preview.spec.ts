import { adminToken, createFileShare, createLocalMount, putFile, useAdminSession } from "./support/factories";
import { expect, test } from "./support/fixtures";

/** CSV and TSV files preview as tables and JSON as a tree that folds, on share pages and in the explorer. */
test.describe.configure({ mode: "serial" });

let token: string;
const run = Date.now().toString(36);
const CSV = 'name,city,note\nAda,London,"likes ""quotes"", and commas"\nLin,Beijing,plain\n';
const JSON_TEXT = JSON.stringify({ service: "clipshare", ports: [8080, 8443], tls: { enabled: true } });

test.beforeAll(async ({ request }) => {
  token = await adminToken(request);
  await createLocalMount(request, token, "/data", { name: "Data", storageName: `data-${run}` });
  await putFile(request, token, "/data/people.csv", CSV);
  await putFile(request, token, "/data/config.json", JSON_TEXT);
});

test("a shared CSV file shows as a table, its text one click away", async ({ page, request }) => {
  const { slug } = await createFileShare(request, token, `people-${run}.csv`, CSV);
  await page.goto(`/file/${slug}`);
  const table = page.getByTestId("data-view").getByRole("table");
  await expect(table.getByRole("columnheader")).toHaveText(["name", "city", "note"]);
  await expect(table.getByRole("row")).toHaveCount(3);
  await expect(table.getByRole("cell", { name: 'likes "quotes", and commas' })).toBeVisible();
  await page.getByRole("button", { name: "Text" }).click();
  await expect(page.getByText("Ada,London,")).toBeVisible();
});

test("JSON in the explorer shows as a tree that folds", async ({ page }) => {
  await useAdminSession(page, token, "/mount-explorer/data?preview=config.json");
  const tree = page.getByTestId("data-view");
  await expect(tree.getByText('"clipshare"')).toBeVisible();
  await expect(tree.getByText("8443")).toBeVisible();
  await tree.getByText("ports:").click();
  await expect(tree.getByText("8443")).toBeHidden();
  await page.getByRole("button", { name: "Text" }).click();
  await expect(page.getByTestId("preview-text")).toHaveText(JSON_TEXT);
});

test("a CSV in the explorer is a table too", async ({ page }) => {
  await useAdminSession(page, token, "/mount-explorer/data?preview=people.csv");
  await expect(page.getByTestId("data-view").getByRole("columnheader")).toHaveText(["name", "city", "note"]);
});
