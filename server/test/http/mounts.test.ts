import { Permission } from "@clipshare/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLocalStorage, createMount, type StorageUnderTest } from "../support/fs-helpers";
import { createTestApp, type TestApp } from "../support/test-app";

let t: TestApp;
let token: string;
let disk: StorageUnderTest;

beforeAll(async () => {
  t = await createTestApp();
  token = await t.adminToken();
  disk = await createLocalStorage(t, "mounts-disk");
});
afterAll(async () => t.close());

// Every mount here shows the same disk; the overlap rule is tested in mount-safety.test.ts.
const base = () => ({
  name: "Data",
  storage_type: "LOCAL",
  storage_config_id: disk.configId,
  allow_overlap: true,
});

describe("admin mount management", () => {
  it("creates a mount with the spec defaults, reads, updates and deletes it", async () => {
    const res = await t.request("POST", "/api/admin/mounts", {
      token,
      body: { ...base(), mount_path: "/crud/" },
    });
    expect(res.status).toBe(201);
    expect(res.body.code).toBe(201);
    const m = res.body.data;
    expect(m).toMatchObject({
      name: "Data",
      mount_path: "/crud",
      storage_type: "LOCAL",
      storage_config_id: disk.configId,
      storage_config_name: "mounts-disk",
      is_active: true,
      cache_ttl: 300,
      sort_order: 0,
      web_proxy: false,
      webdav_policy: "302_redirect",
      enable_sign: false,
      sign_expires: null,
      remark: null,
      root: "",
    });
    expect(m.created_by).toBeTruthy();
    expect((await t.request("GET", `/api/admin/mounts/${m.id}`, { token })).body.data.id).toBe(m.id);

    const upd = await t.request("PUT", `/api/admin/mounts/${m.id}`, {
      token,
      body: {
        name: "Renamed",
        cache_ttl: 0,
        web_proxy: 1,
        enable_sign: "true",
        sign_expires: 60,
        remark: "r",
        unknown_field: 1,
      },
    });
    expect(upd.status).toBe(200);
    expect(upd.body.data).toMatchObject({
      name: "Renamed",
      cache_ttl: 0,
      web_proxy: true,
      enable_sign: true,
      sign_expires: 60,
      remark: "r",
    });

    expect((await t.request("DELETE", `/api/admin/mounts/${m.id}`, { token })).status).toBe(200);
    const gone = await t.request("GET", `/api/admin/mounts/${m.id}`, { token });
    expect(gone.status).toBe(404);
    expect(gone.body.message).toBe("Mount does not exist");
    expect((await t.request("DELETE", `/api/admin/mounts/${m.id}`, { token })).status).toBe(404);
  });

  it("lists every mount, inactive ones too, by sort order then name", async () => {
    await createMount(t, disk, "/order-b", { name: "B", sort_order: 2 });
    await createMount(t, disk, "/order-a", { name: "A", sort_order: 2 });
    await createMount(t, disk, "/order-z", { name: "Z", sort_order: -1, is_active: false });
    const res = await t.request("GET", "/api/admin/mounts", { token });
    const ours = res.body.data.filter((m: { mount_path: string }) => m.mount_path.startsWith("/order-"));
    expect(ours.map((m: { name: string }) => m.name)).toEqual(["Z", "A", "B"]);
  });

  it.each([
    [{ name: "" }, "Mount name is required"],
    [{ name: "x".repeat(51) }, "Mount name may be at most 50 characters"],
    [{ mount_path: "data" }, "Mount path must start with /"],
    [{ mount_path: "/" }, "Mount path cannot be the root directory"],
    [{ mount_path: "/a//b" }, "Mount path cannot contain consecutive /"],
    [{ mount_path: "/a b" }, "Mount path may contain only letters, digits, _, -, Chinese characters and /"],
    [{ mount_path: "/a?x" }, "Mount path may contain only letters, digits, _, -, Chinese characters and /"],
    [
      { mount_path: "/a/../b" },
      "Mount path may contain only letters, digits, _, -, Chinese characters and /",
    ],
    [{ mount_path: "/api" }, "Mount path /api is reserved by the system"],
    [{ mount_path: "/DAV/x" }, "Mount path /dav is reserved by the system"],
    [{ mount_path: "/proc" }, "Mount path /proc is reserved by the system"],
    [{ mount_path: undefined }, "Mount path is required"],
    [{ cache_ttl: -1 }, "Cache TTL must be an integer between 0 and 86400 seconds"],
    [{ cache_ttl: 86_401 }, "Cache TTL must be an integer between 0 and 86400 seconds"],
    [{ cache_ttl: 1.5 }, null],
    [{ sort_order: "first" }, null],
    [{ storage_type: "GOPHER" }, "Storage type is required (LOCAL, S3, WEBDAV, SFTP, FTP)"],
    [{ storage_config_id: undefined }, "Storage config is required"],
    [{ storage_config_id: "no-such-config" }, "Specified storage config does not exist"],
  ])("refuses %j", async (patch, message) => {
    const res = await t.request("POST", "/api/admin/mounts", {
      token,
      body: { ...base(), mount_path: "/valid", ...patch },
    });
    expect(res.status).toBe(400);
    if (message) expect(res.body.message).toBe(message);
  });

  it("accepts Chinese characters, digits, _ and -, and cache TTL 0 (no cache)", async () => {
    const res = await t.request("POST", "/api/admin/mounts", {
      token,
      body: { ...base(), mount_path: "/资料/team_1-a", cache_ttl: 0, storage_type: "local" },
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ mount_path: "/资料/team_1-a", cache_ttl: 0 });
  });

  it("keeps mount paths unique (409), also case-insensitively and on update", async () => {
    const a = await createMount(t, disk, "/unique");
    const dup = await t.request("POST", "/api/admin/mounts", {
      token,
      body: { ...base(), mount_path: "/Unique" },
    });
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({ error: "mount_path_taken", message: "Mount path already in use" });
    const b = await createMount(t, disk, "/unique2");
    expect(
      (await t.request("PUT", `/api/admin/mounts/${b}`, { token, body: { mount_path: "/unique" } })).status,
    ).toBe(409);
    // Changing only the case of its own path is fine.
    expect(
      (await t.request("PUT", `/api/admin/mounts/${a}`, { token, body: { mount_path: "/UNIQUE" } })).status,
    ).toBe(200);
  });

  it("only the admin manages mounts", async () => {
    const key = await t.createApiKey(Permission.MOUNT_VIEW | Permission.MOUNT_UPLOAD);
    const id = await createMount(t, disk, "/admin-only");
    const asKey = { apiKey: key.key };
    expect((await t.request("GET", "/api/admin/mounts", asKey)).status).toBe(403);
    expect(
      (await t.request("POST", "/api/admin/mounts", { ...asKey, body: { ...base(), mount_path: "/k" } }))
        .status,
    ).toBe(403);
    expect(
      (await t.request("PUT", `/api/admin/mounts/${id}`, { ...asKey, body: { is_active: false } })).status,
    ).toBe(403);
    expect((await t.request("DELETE", `/api/admin/mounts/${id}`, asKey)).status).toBe(403);
    expect((await t.request("GET", "/api/admin/mounts")).status).toBe(401);
  });
});

describe("user mounts (API keys)", () => {
  let ids: Record<string, string>;
  beforeAll(async () => {
    ids = {
      team: await createMount(t, disk, "/u/team"),
      teamSub: await createMount(t, disk, "/u/team/sub"),
      teamB: await createMount(t, disk, "/u/teamb"),
      parent: await createMount(t, disk, "/u"),
      off: await createMount(t, disk, "/u/team/off", { is_active: false }),
    };
  });

  it("a key sees the active mounts under its base path and those containing it", async () => {
    const key = await t.createApiKey(Permission.MOUNT_VIEW, { basic_path: "/u/team" });
    const res = await t.request("GET", "/api/user/mounts", { apiKey: key.key });
    expect(res.status).toBe(200);
    const paths = res.body.data.map((m: { mount_path: string }) => m.mount_path).sort();
    expect(paths).toEqual(["/u", "/u/team", "/u/team/sub"]);
    expect((await t.request("GET", `/api/user/mounts/${ids.team}`, { apiKey: key.key })).status).toBe(200);
    const other = await t.request("GET", `/api/user/mounts/${ids.teamB}`, { apiKey: key.key });
    expect(other.status).toBe(403);
    expect(other.body.message).toBe("No permission to access this mount");
    expect((await t.request("GET", `/api/user/mounts/${ids.off}`, { apiKey: key.key })).status).toBe(404);
  });

  it("needs mount view; the admin sees every active mount", async () => {
    const noView = await t.createApiKey(Permission.MOUNT_UPLOAD);
    expect((await t.request("GET", "/api/user/mounts", { apiKey: noView.key })).status).toBe(403);
    const all = await t.request("GET", "/api/user/mounts", { token });
    expect(all.status).toBe(200);
    const paths = all.body.data.map((m: { mount_path: string }) => m.mount_path);
    expect(paths).toContain("/u/teamb");
    expect(paths).not.toContain("/u/team/off");
  });

  it("a mount change shows in the tree at once", async () => {
    const id = await createMount(t, disk, "/toggle");
    const root = async () =>
      (await t.request("GET", "/api/fs/list?path=/", { token })).body.data.items.map(
        (i: { name: string }) => i.name,
      );
    expect(await root()).toContain("toggle");
    await t.request("PUT", `/api/admin/mounts/${id}`, { token, body: { is_active: false } });
    expect(await root()).not.toContain("toggle");
    expect((await t.request("GET", "/api/fs/list?path=/toggle", { token })).status).toBe(404);
  });
});
