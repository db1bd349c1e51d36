import { Permission } from "@clipshare/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createContext } from "../../src/context";
import { createApp } from "../../src/http/app";
import { createLogger } from "../../src/logger";
import {
  type Auth,
  createLocalStorage,
  createMount,
  list,
  mustPut,
  type StorageUnderTest,
} from "../support/fs-helpers";
import { createTestApp, type TestApp, testDialect } from "../support/test-app";

let t: TestApp;
let admin: Auth;
let disk: StorageUnderTest;
let cachedMount: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = { token: await t.adminToken() };
  disk = await createLocalStorage(t, "cache-disk");
  cachedMount = await createMount(t, disk, "/cached", { cache_ttl: 60 });
  await createMount(t, disk, "/uncached", { cache_ttl: 0 });
  await mustPut(t, "/cached/a/one.txt", "1", admin);
});
afterAll(async () => t.close());

describe("directory cache", () => {
  it("a mount with cache TTL 0 is never cached", async () => {
    expect((await list(t, "/uncached/a", admin)).body.data.cached).toBe(false);
    expect((await list(t, "/uncached/a", admin)).body.data.cached).toBe(false);
  });

  it("reports statistics to the admin only", async () => {
    await list(t, "/cached/a", admin);
    await list(t, "/cached/a", admin);
    const res = await t.request("GET", "/api/admin/cache/stats", admin);
    expect(res.status).toBe(200);
    const { cache, system, timestamp } = res.body.data;
    expect(cache.directory).toMatchObject({ name: "DirectoryCache", cacheSize: expect.any(Number) });
    expect(cache.directory.hits).toBeGreaterThanOrEqual(1);
    expect(cache.directory.hitRate).toBeGreaterThan(0);
    expect(cache.s3Url.name).toBe("S3UrlCache");
    expect(cache.search.name).toBe("SearchCache");
    expect(system.memory).toMatchObject({
      rss: expect.any(Number),
      heapUsed: expect.any(Number),
      heapUsagePercent: expect.any(Number),
    });
    expect(Date.parse(timestamp)).toBeGreaterThan(0);
    const key = await t.createApiKey(Permission.MOUNT_VIEW);
    expect((await t.request("GET", "/api/admin/cache/stats", { apiKey: key.key })).status).toBe(403);
  });

  it("admin clear: everything, one mount, or the mounts of one storage config", async () => {
    await list(t, "/cached/a", admin);
    const one = await t.request("POST", "/api/admin/cache/clear", {
      ...admin,
      body: { mountId: cachedMount },
    });
    expect(one.status).toBe(200);
    expect(one.body.data.clearedCount).toBeGreaterThanOrEqual(1);
    expect(one.body.message).toMatch(/^Cache cleared, \d+ items in total$/);
    expect((await list(t, "/cached/a", admin)).body.data.cached).toBe(false);
    const byConfig = await t.request("POST", "/api/admin/cache/clear", {
      ...admin,
      body: { s3ConfigId: disk.configId },
    });
    expect(byConfig.body.data.clearedCount).toBeGreaterThanOrEqual(1);
    await list(t, "/cached/a", admin);
    const all = await t.request("POST", "/api/admin/cache/clear", admin);
    expect(all.body.data.clearedCount).toBeGreaterThanOrEqual(1);
    expect((await list(t, "/cached/a", admin)).body.data.cached).toBe(false);
  });

  it("user clear needs mount view and works for the admin too", async () => {
    const noView = await t.createApiKey(Permission.TEXT);
    expect((await t.request("POST", "/api/user/cache/clear", { apiKey: noView.key })).status).toBe(403);
    expect((await t.request("POST", "/api/user/cache/clear", admin)).status).toBe(200);
  });
});

describe.runIf(testDialect() === "postgres")(
  "invalidation across instances (PostgreSQL LISTEN/NOTIFY)",
  () => {
    it("a write on one instance drops the cached listing on another", async () => {
      const other = await createContext(t.config, { log: createLogger("silent") });
      try {
        const otherApp = createApp(other);
        const listOther = async () => {
          const res = await otherApp.request("/api/fs/list?path=/cached/a", {
            headers: { authorization: `Bearer ${admin.token}` },
          });
          return ((await res.json()) as { data: { cached: boolean; items: Array<{ name: string }> } }).data;
        };
        await listOther();
        expect((await listOther()).cached).toBe(true);
        await mustPut(t, "/cached/a/two.txt", "2", admin);
        const deadline = Date.now() + 5000;
        let seen = await listOther();
        while (!seen.items.some((i) => i.name === "two.txt") && Date.now() < deadline) {
          await new Promise((r) => setTimeout(r, 25));
          seen = await listOther();
        }
        expect(seen.items.map((i) => i.name)).toContain("two.txt");
        // Mount changes reach the other instance too.
        await t.request("PUT", `/api/admin/mounts/${cachedMount}`, { ...admin, body: { is_active: false } });
        const gone = Date.now() + 5000;
        let status = 200;
        while (status === 200 && Date.now() < gone) {
          status = (
            await otherApp.request("/api/fs/list?path=/cached/a", {
              headers: { authorization: `Bearer ${admin.token}` },
            })
          ).status;
          if (status === 200) await new Promise((r) => setTimeout(r, 25));
        }
        expect(status).toBe(404);
        await t.request("PUT", `/api/admin/mounts/${cachedMount}`, { ...admin, body: { is_active: true } });
      } finally {
        await other.close();
      }
    });
  },
);
