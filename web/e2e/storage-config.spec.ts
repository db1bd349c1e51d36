import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { adminToken, createFileShare, useAdminSession } from "./support/factories";
import { expect, failedResource, saveScreenshot, test, unique } from "./support/fixtures";

test.describe("storage configuration", () => {
  test("test the LOCAL storage, add a local folder with a preset-free form, make it default, delete", async ({
    page,
    request,
    consoleGuard,
  }) => {
    consoleGuard.allow(failedResource(409));
    const token = await adminToken(request);
    // Make sure the default LOCAL config holds a share, so deleting it must be refused.
    await createFileShare(request, token, "keep.txt", "in use");
    await useAdminSession(page, token, "/admin/storage-config");
    await expect(page.getByRole("heading", { level: 2, name: "Storage configuration" })).toBeVisible();

    const local = page.getByRole("listitem", { name: "Local storage" });
    await expect(local).toContainText("Default");
    await expect(local).toContainText("Local folder");

    // Test: write, read and list pass; presigned URLs and CORS are not needed for LOCAL.
    await local.getByRole("button", { name: "Test Local storage" }).click();
    const results = page.getByRole("dialog", { name: 'Test "Local storage"' });
    await expect(results.getByText("All checks passed.")).toBeVisible();
    for (const check of ["Write", "Read", "List"]) {
      await expect(results.getByRole("listitem", { name: check })).toHaveAttribute("data-state", "passed");
    }
    await expect(results.getByRole("listitem", { name: "Browser uploads (CORS)" })).toHaveAttribute(
      "data-state",
      "skipped",
    );
    await saveScreenshot(page, "storage-test-local");
    await results.getByRole("button", { name: "Close" }).last().click();

    // Create a second LOCAL config through the dialog; validation first.
    const root = mkdtempSync(join(tmpdir(), "clipshare-e2e-local-"));
    const name = unique("Archive disk");
    try {
      await page.getByRole("button", { name: "Add storage" }).click();
      const dialog = page.getByRole("dialog", { name: "Add storage configuration" });
      // S3 is the default type: the provider preset fills region and path style.
      await dialog.getByLabel("Provider").selectOption("Backblaze B2");
      await expect(dialog.getByLabel("Region")).toHaveValue("us-west-004");
      await expect(dialog.getByLabel("Endpoint URL")).toHaveValue("https://s3.us-west-004.backblazeb2.com");
      await expect(dialog.getByRole("checkbox", { name: "Path-style URLs" })).not.toBeChecked();
      await dialog.getByRole("button", { name: "Add storage" }).click();
      await expect(dialog.getByText("Required.").first()).toBeVisible();

      await dialog.getByLabel("Storage type").selectOption("LOCAL");
      await dialog.getByLabel("Name").fill(name);
      await dialog.getByLabel("Root folder").fill("relative/path");
      await dialog.getByRole("button", { name: "Add storage" }).click();
      await expect(dialog.getByText("Enter an absolute path starting with /.")).toBeVisible();
      await dialog.getByLabel("Root folder").fill(root);
      await dialog.getByLabel("Quota").fill("2");
      await dialog.getByRole("button", { name: "Add storage" }).click();
      await expect(dialog).toBeHidden();

      const created = page.getByRole("listitem", { name });
      await expect(created).toContainText(root);
      await expect(created).toContainText("0 files · 0 B · of 2 GB");

      await created.getByRole("button", { name: `Make default: ${name}` }).click();
      await expect(created).toContainText("Default");
      await expect(local.getByRole("button", { name: "Make default: Local storage" })).toBeVisible();
      // Put the first-run config back as default for the other tests.
      await local.getByRole("button", { name: "Make default: Local storage" }).click();
      await expect(local).toContainText("Default");

      // Edit: rename.
      await created.getByRole("button", { name: `Edit ${name}` }).click();
      const edit = page.getByRole("dialog", { name: "Edit storage configuration" });
      await expect(edit.getByLabel("Storage type")).toBeDisabled();
      await expect(edit.getByLabel("Root folder")).toHaveValue(root);
      await edit.getByLabel("Name").fill(`${name} 2`);
      await edit.getByRole("button", { name: "Save" }).click();
      await expect(edit).toBeHidden();
      const renamed = page.getByRole("listitem", { name: `${name} 2` });
      await expect(renamed).toBeVisible();

      // In use → the server's 409 message; unused → deleted.
      await local.getByRole("button", { name: "Delete Local storage" }).click();
      const confirm = page.getByRole("alertdialog", { name: 'Delete "Local storage"?' });
      await confirm.getByRole("button", { name: "Delete" }).click();
      await expect(confirm.getByRole("alert")).toContainText(
        /Cannot delete this config because \d+ files are using it/,
      );
      await confirm.getByRole("button", { name: "Cancel" }).click();

      await renamed.getByRole("button", { name: `Delete ${name} 2` }).click();
      await page.getByRole("alertdialog").getByRole("button", { name: "Delete" }).click();
      await expect(page.getByRole("listitem", { name: `${name} 2` })).toHaveCount(0);
      await expect(local).toBeVisible();
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
