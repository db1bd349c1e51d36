import { afterEach, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/test-app";

let t: TestApp | null = null;
afterEach(async () => {
  await t?.close();
  t = null;
});

describe("X-ClipShare-Instance", () => {
  it("is not sent unless INSTANCE_NAME is set", async () => {
    t = await createTestApp();
    expect((await t.request("GET", "/api/health")).headers.has("x-clipshare-instance")).toBe(false);
  });

  it("names the instance on successes and on errors", async () => {
    t = await createTestApp({ INSTANCE_NAME: "web-2" });
    expect((await t.request("GET", "/api/health")).headers.get("x-clipshare-instance")).toBe("web-2");
    const denied = await t.request("GET", "/api/admin/api-keys");
    expect(denied.status).toBe(401);
    expect(denied.headers.get("x-clipshare-instance")).toBe("web-2");
  });
});
