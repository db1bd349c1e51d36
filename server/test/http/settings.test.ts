import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/test-app";

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await createTestApp();
  token = await t.adminToken();
});
afterAll(async () => t.close());

const settingsMap = (rows: Array<{ key: string; value: string }>) =>
  Object.fromEntries(rows.map((r) => [r.key, r.value]));

describe("system settings", () => {
  it("lists the defaults", async () => {
    const res = await t.request("GET", "/api/admin/system-settings", { token });
    expect(res.status).toBe(200);
    expect(settingsMap(res.body.data)).toEqual({
      max_upload_size: "100",
      max_upload_size_unit: "MB",
      webdav_upload_mode: "direct",
      proxy_sign_all: "true",
      proxy_sign_expires: "0",
      access_log_privacy_mode: "false",
      access_log_ip: "false",
      access_log_retention_days: "90",
      public_webdav: "false",
      public_download_limit: "600",
      require_admin_second_factor: "false",
    });
  });

  it("updates max upload size with a unit and the public endpoint reflects it", async () => {
    const res = await t.request("PUT", "/api/admin/system-settings", {
      token,
      body: { max_upload_size: 2, max_upload_size_unit: "GB", webdav_upload_mode: "multipart" },
    });
    expect(res.status).toBe(200);
    expect(settingsMap(res.body.data)).toMatchObject({
      max_upload_size: "2",
      max_upload_size_unit: "GB",
      webdav_upload_mode: "multipart",
    });
    const pub = await t.request("GET", "/api/system/max-upload-size");
    expect(pub.body.data).toEqual({
      max_upload_size: 2,
      max_upload_size_unit: "GB",
      max_upload_size_bytes: 2 * 1024 ** 3,
    });
  });

  it.each([
    [{ max_upload_size: 0 }, "Max upload size must be a positive integer"],
    [{ max_upload_size: -5 }, "Max upload size must be a positive integer"],
    [{ max_upload_size_unit: "TB" }, "Max upload size unit must be KB, MB or GB"],
    [{ webdav_upload_mode: "magic" }, "Invalid WebDAV upload mode, valid values: multipart, direct"],
    [{ access_log_retention_days: -1 }, "Retention must be between 0 and 36500 days"],
  ])("rejects %j with 400", async (body, message) => {
    const res = await t.request("PUT", "/api/admin/system-settings", { token, body });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
  });

  it("proxy sign settings round-trip with strict types", async () => {
    const get = await t.request("GET", "/api/admin/proxy-sign-settings", { token });
    expect(get.body.data).toEqual({ signAll: true, expires: 0 });
    const set = await t.request("POST", "/api/admin/proxy-sign-settings", {
      token,
      body: { signAll: false, expires: 3600 },
    });
    expect(set.status).toBe(200);
    expect(set.body.data).toEqual({ signAll: false, expires: 3600 });
    const bad = await t.request("POST", "/api/admin/proxy-sign-settings", {
      token,
      body: { signAll: "yes", expires: 1 },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe("signAll must be a boolean");
    const negative = await t.request("POST", "/api/admin/proxy-sign-settings", {
      token,
      body: { signAll: true, expires: -1 },
    });
    expect(negative.body.message).toBe("expires must be non-negative");
  });

  it("is admin-only", async () => {
    expect((await t.request("GET", "/api/admin/system-settings")).status).toBe(401);
    const { key } = await t.createApiKey(204547);
    expect(
      (await t.request("PUT", "/api/admin/system-settings", { apiKey: key, body: { max_upload_size: 1 } }))
        .status,
    ).toBe(403);
  });
});
