/**
 * Who may reach what, route group by role: Alice's pastes, file shares, requests,
 * collections, keys, tasks, access log and files (under her grant /m/alice) against the administrator, Alice,
 * Alice's API key, Bob (another user with the same rights under /m/bob), a guest (who may
 * only look, under /m/public) and anonymous callers, through /api, ZIP, search and WebDAV.
 * Each row is one request and the answer it must get; a row that reads a list says what the
 * list must (not) hold.
 */
import { Permission } from "@clipshare/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLocalStorage, createMount, mustPut } from "../support/fs-helpers";
import { taskRow } from "../support/rows";
import { createTestApp, type TestApp, type TestUser } from "../support/test-app";

const GRANT =
  Permission.TEXT |
  Permission.FILE_SHARE |
  Permission.MOUNT_VIEW |
  Permission.MOUNT_UPLOAD |
  Permission.MOUNT_DELETE |
  Permission.WEBDAV_READ |
  Permission.WEBDAV_MANAGE;

type Caller = "admin" | "alice" | "aliceKey" | "bob" | "guest" | "anonymous";

let t: TestApp;
const auth: Record<Caller, { token?: string; apiKey?: string; basic?: string }> = {
  admin: {},
  alice: {},
  aliceKey: {},
  bob: {},
  guest: {},
  anonymous: {},
};
let alice: TestUser;
const ids = { paste: "", pasteSlug: "", file: "", request: "", key: "", task: "", collection: "" };

const basic = (u: TestUser) => `Basic ${Buffer.from(`${u.username}:${u.password}`).toString("base64")}`;

beforeAll(async () => {
  t = await createTestApp();
  auth.admin = { token: await t.adminToken() };
  const storage = await createLocalStorage(t, "matrix");
  await createMount(t, storage, "/m");
  alice = await t.createUser({ username: "alice", permissions: GRANT, base_path: "/m/alice" });
  const bob = await t.createUser({ username: "bob", permissions: GRANT, base_path: "/m/bob" });
  const guest = await t.createUser({ username: "guest", role: "guest", base_path: "/m/public" });
  auth.alice = { token: alice.token, basic: basic(alice) };
  auth.bob = { token: bob.token, basic: basic(bob) };
  auth.guest = { token: guest.token, basic: basic(guest) };
  const key = await alice.createApiKey(GRANT, { basic_path: "/m/alice" });
  ids.key = key.id;
  auth.aliceKey = { apiKey: key.key, basic: `Basic ${Buffer.from(`any:${key.key}`).toString("base64")}` };

  await mustPut(t, "/m/alice/secret.txt", "alice's secret", auth.admin);
  await mustPut(t, "/m/bob/bob.txt", "bob's", auth.admin);
  await mustPut(t, "/m/public/hello.txt", "hello", auth.admin);
  const paste = await t.request("POST", "/api/paste", {
    token: alice.token,
    body: { content: "alice paste" },
  });
  ids.paste = paste.body.data.id;
  ids.pasteSlug = paste.body.data.slug;
  const file = await t.request("PUT", "/api/upload-direct/alice.txt", {
    token: alice.token,
    rawBody: "alice file",
    headers: { "content-type": "text/plain" },
  });
  expect(file.status, file.text).toBe(201);
  ids.file = file.body.data.id;
  const request = await t.request("POST", "/api/requests", {
    token: alice.token,
    body: { title: "Send me", target: { kind: "share" } },
  });
  expect(request.status, request.text).toBe(201);
  ids.request = request.body.data.id;
  const collection = await t.request("POST", "/api/collections", {
    token: alice.token,
    body: { title: "Mine", items: [{ file_id: ids.file }, { path: "/m/alice/secret.txt" }] },
  });
  expect(collection.status, collection.text).toBe(201);
  ids.collection = collection.body.data.id;
  ids.task = "matrix-task";
  await t.ctx.db
    .insertInto("tasks")
    .values(
      taskRow("copy", alice.id, {
        id: ids.task,
        owner_id: alice.id,
        claimed_by: "nobody",
        claimed_at: new Date().toISOString(),
      }),
    )
    .execute();
});
afterAll(() => t.close());

interface Row {
  group: string;
  what: string;
  method: string;
  path: () => string;
  body?: unknown;
  dav?: true;
  /** The status each caller gets. */
  expect: Partial<Record<Caller, number>>;
}

/** Alice and the administrator reach it; Bob and the guest find nothing there; anonymous must sign in. */
const ownerOnly = (status = 200, keyStatus = status): Partial<Record<Caller, number>> => ({
  admin: status,
  alice: status,
  aliceKey: keyStatus,
  bob: 404,
  guest: 404,
  anonymous: 401,
});

const rows: Row[] = [
  // Pastes: reading, editing, the access log.
  {
    group: "pastes",
    what: "read one",
    method: "GET",
    path: () => `/api/pastes/${ids.paste}`,
    expect: { ...ownerOnly(200, 404), guest: 403 },
  },
  {
    group: "pastes",
    what: "edit",
    method: "PUT",
    path: () => `/api/pastes/${ids.paste}`,
    body: { remark: "changed" },
    expect: { ...ownerOnly(200, 404), guest: 403 },
  },
  {
    group: "access log",
    what: "of a paste",
    method: "GET",
    path: () => `/api/pastes/${ids.paste}/access-log`,
    expect: { ...ownerOnly(200, 404), guest: 403 },
  },
  // File shares.
  {
    group: "files",
    what: "read one",
    method: "GET",
    path: () => `/api/files/${ids.file}`,
    expect: { ...ownerOnly(200, 404), guest: 403 },
  },
  {
    group: "files",
    what: "edit",
    method: "PUT",
    path: () => `/api/files/${ids.file}`,
    body: { remark: "changed" },
    expect: { ...ownerOnly(200, 404), guest: 403 },
  },
  {
    group: "access log",
    what: "of a file share",
    method: "GET",
    path: () => `/api/files/${ids.file}/access-log`,
    expect: { ...ownerOnly(200, 404), guest: 403 },
  },
  // File requests.
  {
    group: "requests",
    what: "read one",
    method: "GET",
    path: () => `/api/requests/${ids.request}`,
    expect: { ...ownerOnly(200, 404), guest: 403 },
  },
  {
    group: "requests",
    what: "edit",
    method: "PUT",
    path: () => `/api/requests/${ids.request}`,
    body: { title: "Changed" },
    expect: { ...ownerOnly(200, 404), guest: 403 },
  },
  // Collections.
  {
    group: "collections",
    what: "read one",
    method: "GET",
    path: () => `/api/collections/${ids.collection}`,
    expect: { ...ownerOnly(200, 404), guest: 403 },
  },
  {
    group: "collections",
    what: "edit",
    method: "PUT",
    path: () => `/api/collections/${ids.collection}`,
    body: { title: "Changed" },
    expect: { ...ownerOnly(200, 404), guest: 403 },
  },
  // Keys: only their user (and administrators) see or change them; a key manages no keys.
  {
    group: "keys",
    what: "read one",
    method: "GET",
    path: () => `/api/admin/api-keys/${ids.key}`,
    expect: { admin: 200, alice: 200, aliceKey: 403, bob: 404, guest: 404, anonymous: 401 },
  },
  {
    group: "keys",
    what: "edit",
    method: "PUT",
    path: () => `/api/admin/api-keys/${ids.key}`,
    body: { name: "renamed-key" },
    expect: { admin: 200, alice: 200, aliceKey: 403, bob: 404, guest: 404, anonymous: 401 },
  },
  // Tasks.
  {
    group: "tasks",
    what: "read one",
    method: "GET",
    path: () => `/api/fs/tasks/${ids.task}`,
    expect: { ...ownerOnly(200, 404), guest: 404 },
  },
  // The explorer: inside and outside the grant.
  {
    group: "explorer",
    what: "list Alice's folder",
    method: "GET",
    path: () => "/api/fs/list?path=/m/alice",
    expect: { admin: 200, alice: 200, aliceKey: 200, bob: 403, guest: 403, anonymous: 401 },
  },
  {
    group: "explorer",
    what: "download Alice's file",
    method: "GET",
    path: () => "/api/fs/download?path=/m/alice/secret.txt",
    expect: { admin: 200, alice: 200, aliceKey: 200, bob: 403, guest: 403, anonymous: 401 },
  },
  {
    group: "explorer",
    what: "list the public folder",
    method: "GET",
    path: () => "/api/fs/list?path=/m/public",
    expect: { admin: 200, alice: 403, aliceKey: 403, bob: 403, guest: 200, anonymous: 401 },
  },
  {
    group: "explorer",
    what: "upload into Alice's folder",
    method: "PUT",
    path: () => "/api/fs/upload?path=/m/alice/new.txt",
    body: "x",
    expect: { admin: 201, alice: 201, aliceKey: 201, bob: 403, guest: 403, anonymous: 401 },
  },
  {
    group: "explorer",
    what: "upload into the public folder (the guest only looks)",
    method: "PUT",
    path: () => "/api/fs/upload?path=/m/public/new.txt",
    body: "x",
    expect: { admin: 201, alice: 403, aliceKey: 403, bob: 403, guest: 403, anonymous: 401 },
  },
  {
    group: "zip",
    what: "Alice's file",
    method: "POST",
    path: () => "/api/fs/zip",
    body: { paths: ["/m/alice/secret.txt"] },
    expect: { admin: 200, alice: 200, aliceKey: 200, bob: 403, guest: 403, anonymous: 401 },
  },
  // WebDAV, with Basic: a user's name and password, or a key as the password.
  {
    group: "webdav",
    what: "read Alice's file",
    method: "GET",
    path: () => "/dav/m/alice/secret.txt",
    dav: true,
    expect: { alice: 200, aliceKey: 200, bob: 403, guest: 403, anonymous: 401 },
  },
  {
    group: "webdav",
    what: "write into Alice's folder",
    method: "PUT",
    path: () => "/dav/m/alice/dav.txt",
    body: "dav",
    dav: true,
    expect: { alice: 201, aliceKey: 204, bob: 403, guest: 403, anonymous: 401 },
  },
  {
    group: "webdav",
    what: "read the public folder's file",
    method: "GET",
    path: () => "/dav/m/public/hello.txt",
    dav: true,
    expect: { alice: 403, aliceKey: 403, bob: 403, guest: 200, anonymous: 401 },
  },
];

async function call(row: Row, caller: Caller) {
  const who = auth[caller];
  const headers: Record<string, string> = {};
  const options: Parameters<TestApp["request"]>[2] = { headers };
  if (row.dav) {
    if (who.basic) headers.authorization = who.basic;
  } else {
    if (who.token) options.token = who.token;
    if (who.apiKey) options.apiKey = who.apiKey;
  }
  if (typeof row.body === "string") {
    options.rawBody = row.body;
    headers["content-type"] = "application/octet-stream";
  } else if (row.body !== undefined) options.body = row.body;
  return t.request(row.method, row.path(), options);
}

const cases = rows.flatMap((row) =>
  (Object.entries(row.expect) as Array<[Caller, number]>).map(([caller, status]) => ({
    row,
    caller,
    status,
  })),
);

describe("route group × role", () => {
  it.each(cases)("$row.group: $row.what, as $caller → $status", async ({ row, caller, status }) => {
    const res = await call(row, caller);
    expect(res.status, res.text.slice(0, 300)).toBe(status);
  });
});

describe("lists and searches hold only what the caller may see", () => {
  type Listed = { id: string }[];
  type Body = {
    data: Listed & { files: Listed; requests: Listed; collections: Listed; tasks?: Listed; items?: Listed };
  };
  const listed = async (path: string, caller: Caller, pick: (body: Body) => string[]) => {
    const res = await t.request("GET", path, {
      ...(auth[caller].token ? { token: auth[caller].token } : {}),
      ...(auth[caller].apiKey ? { apiKey: auth[caller].apiKey } : {}),
    });
    expect(res.status, res.text).toBe(200);
    return pick(res.body);
  };
  const pastesOf = (body: Body) => body.data.map((p) => p.id);
  const filesOf = (body: Body) => body.data.files.map((f) => f.id);
  const requestsOf = (body: Body) => body.data.requests.map((r) => r.id);
  const collectionsOf = (body: Body) => body.data.collections.map((c) => c.id);
  const tasksOf = (body: Body) => (body.data.tasks ?? body.data.items ?? body.data).map((x) => x.id);

  it.each([
    ["pastes", "/api/pastes", pastesOf, () => ids.paste],
    ["file shares", "/api/files", filesOf, () => ids.file],
    ["file requests", "/api/requests", requestsOf, () => ids.request],
    ["collections", "/api/collections", collectionsOf, () => ids.collection],
    ["tasks", "/api/fs/tasks", tasksOf, () => ids.task],
  ] as const)("%s: Alice and the administrator list hers, Bob does not", async (_what, path, pick, id) => {
    expect(await listed(path, "admin", pick)).toContain(id());
    expect(await listed(path, "alice", pick)).toContain(id());
    expect(await listed(path, "bob", pick)).not.toContain(id());
  });

  it("the administrator's lists name each share's owner and filter by it", async () => {
    const res = await t.request("GET", `/api/pastes?owner_id=${alice.id}`, { token: auth.admin.token });
    expect(res.body.data.map((p: { id: string }) => p.id)).toEqual([ids.paste]);
    expect(res.body.data[0]).toMatchObject({ owner_id: alice.id, owner_name: "alice" });
    const files = await t.request("GET", `/api/files?owner_id=${alice.id}`, { token: auth.admin.token });
    expect(files.body.data.files[0]).toMatchObject({ owner_id: alice.id, owner_name: "alice" });
  });

  it("search finds Alice's file for her, never for Bob", async () => {
    const search = async (caller: Caller) => {
      const res = await t.request("GET", "/api/fs/search?q=secret&scope=global", {
        token: auth[caller].token,
      });
      expect(res.status, res.text).toBe(200);
      return (res.body.data.results as Array<{ path: string }>).map((r) => r.path);
    };
    expect(await search("alice")).toContain("/m/alice/secret.txt");
    expect(await search("bob")).not.toContain("/m/alice/secret.txt");
  });

  it("Bob's batch delete of Alice's paste and file share deletes nothing", async () => {
    const pastes = await t.request("DELETE", "/api/pastes/batch-delete", {
      token: auth.bob.token,
      body: { ids: [ids.paste] },
    });
    expect(pastes.status).toBe(200);
    const files = await t.request("DELETE", "/api/files/batch-delete", {
      token: auth.bob.token,
      body: { ids: [ids.file] },
    });
    expect(files.body.data.success ?? 0).toBe(0);
    expect((await t.request("GET", `/api/pastes/${ids.paste}`, { token: alice.token })).status).toBe(200);
    expect((await t.request("GET", `/api/files/${ids.file}`, { token: alice.token })).status).toBe(200);
  });
});

describe("a user's API key does no more than the user", () => {
  it("loses WebDAV writing the moment Alice does", async () => {
    const before = await t.request("PUT", "/dav/m/alice/k1.txt", {
      headers: { authorization: auth.aliceKey.basic!, "content-type": "text/plain" },
      rawBody: "1",
    });
    expect(before.status).toBe(201);
    await t.request("PUT", `/api/admin/users/${alice.id}`, {
      token: auth.admin.token,
      body: { permissions: GRANT & ~Permission.WEBDAV_MANAGE },
    });
    const after = await t.request("PUT", "/dav/m/alice/k2.txt", {
      headers: { authorization: auth.aliceKey.basic!, "content-type": "text/plain" },
      rawBody: "2",
    });
    expect(after.status).toBe(403);
    await t.request("PUT", `/api/admin/users/${alice.id}`, {
      token: auth.admin.token,
      body: { permissions: GRANT },
    });
  });

  it("cannot reach outside Alice's base path even when the key says /", async () => {
    // Made while the administrator had widened Alice, then Alice was narrowed again.
    await t.request("PUT", `/api/admin/users/${alice.id}`, {
      token: auth.admin.token,
      body: { base_path: "/" },
    });
    const fresh = await t.request("POST", "/api/admin/login", {
      body: { username: alice.username, password: alice.password },
    });
    const wide = await t.request("POST", "/api/admin/api-keys", {
      token: fresh.body.data.token,
      body: { name: "wide-key", permissions: Permission.MOUNT_VIEW, basic_path: "/" },
    });
    expect(wide.status).toBe(201);
    await t.request("PUT", `/api/admin/users/${alice.id}`, {
      token: auth.admin.token,
      body: { base_path: "/m/alice" },
    });
    const bobs = await t.request("GET", "/api/fs/list?path=/m/bob", { apiKey: wide.body.data.key });
    expect(bobs.status).toBe(403);
    const hers = await t.request("GET", "/api/fs/list?path=/m/alice", { apiKey: wide.body.data.key });
    expect(hers.status).toBe(200);
  });
});
