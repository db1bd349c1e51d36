import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Permission } from "@clipshare/shared";
import sharp from "sharp";
import {
  adminToken,
  createApiKey,
  createFileShare,
  createLocalMount,
  putFile,
  signInWithKeyViaForm,
  useAdminSession,
} from "./support/factories";
import { expect, test } from "./support/fixtures";

/** A photo's details (EXIF): camera and exposure for everyone who sees it, the place only for those who may change the file. */
test.describe.configure({ mode: "serial" });

let token: string;
let photo: Buffer;
let heic: Buffer;
const run = Date.now().toString(36);

test.beforeAll(async ({ request }) => {
  token = await adminToken(request);
  photo = await sharp({ create: { width: 320, height: 240, channels: 3, background: "#3366aa" } })
    .jpeg()
    .withExif({
      IFD0: { Make: "ClipCam", Model: "Z9" },
      IFD2: { DateTimeOriginal: "2025:06:01 10:20:30", FNumber: "28/10", ISOSpeedRatings: "200" },
      IFD3: {
        GPSLatitudeRef: "N",
        GPSLatitude: "48/1 51/1 24/1",
        GPSLongitudeRef: "E",
        GPSLongitude: "2/1 21/1 3/1",
      },
    })
    .toBuffer();
  await createLocalMount(request, token, "/photos", { name: "Photos", storageName: `photos-${run}` });
  await putFile(request, token, "/photos/paris.jpg", photo);
  heic = await heicPhoto();
  await putFile(request, token, "/photos/phone.heic", heic);
});

/** A HEIC photo as phones make them, with its camera and place: encoded by libheif's tool from a JPEG. */
async function heicPhoto(): Promise<Buffer> {
  const dir = mkdtempSync(join(tmpdir(), "clipshare-e2e-heic-"));
  await sharp({ create: { width: 2400, height: 1600, channels: 3, background: "#22aa44" } })
    .jpeg()
    .withExif({
      IFD0: { Make: "PhoneCam", Model: "X2" },
      IFD2: { FNumber: "18/10", ISOSpeedRatings: "64" },
      IFD3: {
        GPSLatitudeRef: "N",
        GPSLatitude: "35/1 40/1 30/1",
        GPSLongitudeRef: "E",
        GPSLongitude: "139/1 45/1 0/1",
      },
    })
    .toFile(join(dir, "p.jpg"));
  execFileSync("heif-enc", ["-q", "60", "-o", join(dir, "p.heic"), join(dir, "p.jpg")]);
  return readFileSync(join(dir, "p.heic"));
}

const imageShown = (locator: import("@playwright/test").Locator) =>
  locator.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0);

test("the admin sees camera, exposure and where the photo was taken", async ({ page }) => {
  await useAdminSession(page, token, "/mount-explorer/photos?preview=paris.jpg");
  await page.getByRole("button", { name: "Photo details" }).click();
  const details = page.getByTestId("photo-details");
  await expect(details).toContainText("ClipCam Z9");
  await expect(details).toContainText("f/2.8 · ISO 200");
  await expect(details).toContainText("48.85667, 2.35083");
});

test("a key that may only view sees the camera but not the place", async ({ page }) => {
  const key = await createApiKey(page.request, token, {
    name: `view-${run}`,
    permissions: Permission.MOUNT_VIEW,
  });
  await signInWithKeyViaForm(page, key.key);
  await expect(page.getByRole("heading", { name: "User panel" })).toBeVisible();
  await page.goto("/mount-explorer/photos?preview=paris.jpg");
  await page.getByRole("button", { name: "Photo details" }).click();
  const details = page.getByTestId("photo-details");
  await expect(details).toContainText("ClipCam Z9");
  await expect(details).not.toContainText("Location");
  await expect(details).not.toContainText("48.8");
});

test("a visitor of a shared photo sees the camera, never the place", async ({ page, request }) => {
  const { slug } = await createFileShare(request, token, `paris-${run}.jpg`, photo);
  await page.goto(`/file/${slug}`);
  await page.getByRole("button", { name: "Photo details" }).click();
  const details = page.getByTestId("photo-details");
  await expect(details).toContainText("ClipCam Z9");
  await expect(details).not.toContainText("48.8");
});

test("a HEIC photo shows at view size, converted by the server, with its details, in the explorer and on its share page", async ({
  page,
  request,
}) => {
  await useAdminSession(page, token, "/mount-explorer/photos?preview=phone.heic");
  const shown = page.getByTestId("preview-image").locator("img");
  await expect(shown).toBeVisible();
  await expect.poll(() => imageShown(shown)).toBe(true);
  // The view size, not a tile: the 2400 px photo comes as 2048 px.
  expect(await shown.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(2048);
  await page.getByRole("button", { name: "Photo details" }).click();
  const details = page.getByTestId("photo-details");
  await expect(details).toContainText("PhoneCam X2");
  await expect(details).toContainText("f/1.8 · ISO 64");
  await expect(details).toContainText("35.67500, 139.75000");
  const { slug } = await createFileShare(request, token, `phone-${run}.heic`, heic);
  await page.goto(`/file/${slug}`);
  const onShare = page.getByRole("img", { name: new RegExp(`phone-${run}\\.heic`) });
  await expect(onShare).toBeVisible();
  await expect.poll(() => imageShown(onShare)).toBe(true);
  await expect(page.getByRole("button", { name: /Show original/ })).toHaveCount(0);
  // A visitor of the share sees the camera, never the place.
  await page.getByRole("button", { name: "Photo details" }).click();
  await expect(page.getByTestId("photo-details")).toContainText("PhoneCam X2");
  await expect(page.getByTestId("photo-details")).not.toContainText("35.6");
});
