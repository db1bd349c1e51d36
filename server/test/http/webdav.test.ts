/**
 * WebDAV at /dav, in-process on SQLite or PostgreSQL: authentication and its
 * rate limit, the WEBDAV_* permission bits, base-path confinement, malformed
 * input (always 4xx), locks shared by two instances on one database, the
 * streamed PROPFIND of a big directory, upload modes and cut uploads. The
 * protocol itself is held to RFC 4918 by litmus (scripts/test-litmus.sh).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Permission } from "@clipshare/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppContext, createContext } from "../../src/context";
import { createApp } from "../../src/http/app";
import { createLogger } from "../../src/logger";
import { createMount, defaultLocalStorage } from "../support/fs-helpers";
import { ADMIN_PASSWORD, ADMIN_USERNAME, createTestApp, type TestApp } from "../support/test-app";

let t: TestApp;
let token: string;
let rw: string; // WEBDAV_READ + WEBDAV_MANAGE, base /
let ro: string; // WEBDAV_READ only
let confined: string; // read + manage, base /m/a
let noDav: string; // explorer bits only

const basic = (user: string, pass: string) => `Basic ${Buffer.from(`${user}:${pass}`).toString("base64")}`;
const ADMIN = basic(ADMIN_USERNAME, ADMIN_PASSWORD);
let ipSeq = 1;
const freshIp = () => `10.9.${Math.floor(ipSeq / 250)}.${ipSeq++ % 250}`;

interface DavOptions {
  auth?: string | null;
  headers?: Record<string, string>;
  body?: RequestInit["body"];
  app?: ReturnType<typeof createApp>;
}

async function dav(method: string, url: string, options: DavOptions = {}) {
  const headers: Record<string, string> = { "x-forwarded-for": "10.0.0.1", ...(options.headers ?? {}) };
  const auth = options.auth === undefined ? ADMIN : options.auth;
  if (auth) headers.authorization = auth;
  const init: RequestInit & { duplex?: "half" } = { method, headers, body: options.body };
  if (options.body instanceof ReadableStream) init.duplex = "half";
  const res = await (options.app ?? t.app).request(url, init);
  return { status: res.status, headers: res.headers, text: await res.text() };
}

const storageRoot = () => path.join(t.dataDir, "files");

beforeAll(async () => {
  t = await createTestApp({ TRUST_PROXY: "true" });
  token = await t.adminToken();
  await createMount(t, await defaultLocalStorage(t), "/m", {
    name: "m",
    webdav_policy: "302_redirect",
    cache_ttl: 0,
  });
  const davBits = Permission.WEBDAV_READ | Permission.WEBDAV_MANAGE;
  rw = (await t.createApiKey(davBits)).key;
  ro = (await t.createApiKey(Permission.WEBDAV_READ)).key;
  confined = (await t.createApiKey(davBits, { basic_path: "/m/a" })).key;
  noDav = (await t.createApiKey(Permission.MOUNT_VIEW | Permission.MOUNT_UPLOAD)).key;
  for (const dir of ["/dav/m/a", "/dav/m/ab", "/dav/m/b"]) expect((await dav("MKCOL", dir)).status).toBe(201);
  expect((await dav("PUT", "/dav/m/a/hello.txt", { body: "hello" })).status).toBe(201);
  expect((await dav("PUT", "/dav/m/ab/secret.txt", { body: "secret" })).status).toBe(201);
});
afterAll(async () => t.close());

describe("authentication", () => {
  it("asks for Basic credentials without them, and remembers nothing per client", async () => {
    const res = await dav("PROPFIND", "/dav/", { auth: null, headers: { depth: "0" } });
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toBe('Basic realm="ClipShare"');
    // A successful request from the same address and agent does not open the door for the next one.
    const ua = { "user-agent": "test-agent/1.0" };
    expect((await dav("PROPFIND", "/dav/", { headers: { depth: "0", ...ua } })).status).toBe(207);
    expect((await dav("PROPFIND", "/dav/", { auth: null, headers: { depth: "0", ...ua } })).status).toBe(401);
  });

  it.each([
    ["Basic admin", () => ADMIN],
    ["Basic key:key", () => basic(rw, rw)],
    ["Basic any user with the key as password", () => basic("someone", rw)],
    ["Bearer admin token", () => `Bearer ${token}`],
    ["ApiKey header", () => `ApiKey ${rw}`],
  ])("accepts %s", async (_label, auth) => {
    const res = await dav("PROPFIND", "/dav/m/", { auth: auth(), headers: { depth: "0" } });
    expect(res.status).toBe(207);
  });

  it("refuses wrong credentials with 401, and rate-limits repeated Basic failures per address", async () => {
    const ip = freshIp();
    const headers = { depth: "0", "x-forwarded-for": ip };
    for (let i = 0; i < 10; i++) {
      const res = await dav("PROPFIND", "/dav/", { auth: basic(ADMIN_USERNAME, `wrong-${i}`), headers });
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toContain("Basic");
    }
    const limited = await dav("PROPFIND", "/dav/", { auth: basic(ADMIN_USERNAME, "wrong-again"), headers });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    // Another address is unaffected.
    expect(
      (await dav("PROPFIND", "/dav/", { headers: { depth: "0", "x-forwarded-for": freshIp() } })).status,
    ).toBe(207);
    expect((await dav("PROPFIND", "/dav/", { auth: "Bearer nope", headers: { depth: "0" } })).status).toBe(
      401,
    );
  });

  it("does not let a cached Basic key outlive its deletion", async () => {
    const key = await t.createApiKey(Permission.WEBDAV_READ);
    expect(
      (await dav("PROPFIND", "/dav/m/", { auth: basic(key.key, key.key), headers: { depth: "0" } })).status,
    ).toBe(207);
    expect((await t.request("DELETE", `/api/admin/api-keys/${key.id}`, { token })).status).toBe(200);
    expect(
      (await dav("PROPFIND", "/dav/m/", { auth: basic(key.key, key.key), headers: { depth: "0" } })).status,
    ).toBe(401);
  });
});

describe("permissions", () => {
  it("a read-only key reads but cannot change anything", async () => {
    const auth = basic(ro, ro);
    expect((await dav("PROPFIND", "/dav/m/a/", { auth, headers: { depth: "1" } })).status).toBe(207);
    expect((await dav("GET", "/dav/m/a/hello.txt", { auth })).text).toBe("hello");
    expect((await dav("OPTIONS", "/dav/m/", { auth })).status).toBe(200);
    const writes: Array<[string, string, Record<string, string>, string?]> = [
      ["PUT", "/dav/m/a/new.txt", {}, "x"],
      ["MKCOL", "/dav/m/a/dir", {}],
      ["DELETE", "/dav/m/a/hello.txt", {}],
      ["COPY", "/dav/m/a/hello.txt", { destination: "/dav/m/a/copy.txt" }],
      ["MOVE", "/dav/m/a/hello.txt", { destination: "/dav/m/a/moved.txt" }],
      [
        "PROPPATCH",
        "/dav/m/a/hello.txt",
        {},
        `<D:propertyupdate xmlns:D="DAV:"><D:set><D:prop><x xmlns="urn:x">1</x></D:prop></D:set></D:propertyupdate>`,
      ],
      [
        "LOCK",
        "/dav/m/a/hello.txt",
        {},
        `<D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockinfo>`,
      ],
      ["UNLOCK", "/dav/m/a/hello.txt", { "lock-token": "<urn:uuid:x>" }],
    ];
    for (const [method, url, headers, body] of writes) {
      const res = await dav(method, url, { auth, headers, body });
      expect(res.status, `${method} ${res.text}`).toBe(403);
      expect(res.text).toContain("WebDAV manage");
    }
    expect((await dav("GET", "/dav/m/a/hello.txt", { auth })).text).toBe("hello");
  });

  it("a key without WebDAV bits is refused even with explorer permissions", async () => {
    const res = await dav("PROPFIND", "/dav/m/", { auth: basic(noDav, noDav), headers: { depth: "0" } });
    expect(res.status).toBe(403);
    expect(res.text).toContain("WebDAV read");
  });
});

describe("base path", () => {
  const auth = () => basic(confined, confined);

  it("works at and below the base path", async () => {
    expect((await dav("PROPFIND", "/dav/m/a/", { auth: auth(), headers: { depth: "1" } })).status).toBe(207);
    expect((await dav("PUT", "/dav/m/a/mine.txt", { auth: auth(), body: "mine" })).status).toBe(201);
    expect(
      (
        await dav("COPY", "/dav/m/a/mine.txt", {
          auth: auth(),
          headers: { destination: "/dav/m/a/mine2.txt" },
        })
      ).status,
    ).toBe(201);
  });

  it.each([
    ["PROPFIND", "/dav/", { depth: "0" }],
    ["PROPFIND", "/dav/m/", { depth: "1" }],
    ["PROPFIND", "/dav/m/ab/", { depth: "1" }],
    ["GET", "/dav/m/ab/secret.txt", {}],
    ["PUT", "/dav/m/b/x.txt", {}],
    ["MKCOL", "/dav/m/b/dir", {}],
    ["DELETE", "/dav/m/ab/secret.txt", {}],
    ["COPY", "/dav/m/a/hello.txt", { destination: "/dav/m/b/hello.txt" }],
    ["MOVE", "/dav/m/a/hello.txt", { destination: "http://localhost/dav/m/ab/hello.txt" }],
    ["COPY", "/dav/m/ab/secret.txt", { destination: "/dav/m/a/stolen.txt" }],
  ])("refuses %s %s outside it", async (method, url, headers) => {
    const res = await dav(method, url, { auth: auth(), headers, body: method === "PUT" ? "x" : undefined });
    expect(res.status, res.text).toBe(403);
  });

  it("refuses traversal, encoded or not", async () => {
    for (const url of ["/dav/m/a/%252e%252e/ab/secret.txt", "/dav/m/a/..%2fab/secret.txt", "/dav/m/a/%00x"]) {
      const res = await dav("GET", url, { auth: auth() });
      expect(res.status, url).toBe(400);
    }
    // In-process, the URL parser has already resolved "%2e%2e" to "/m/ab" (outside the base); on a
    // socket the raw target is refused with 400 (webdav-clients.test.ts).
    const dotted = await dav("GET", "/dav/m/a/%2e%2e/ab/secret.txt", { auth: auth() });
    expect(dotted.status).toBe(403);
    expect(dotted.text).not.toContain("secret");
    const res = await dav("COPY", "/dav/m/a/hello.txt", {
      auth: auth(),
      headers: { destination: "/dav/m/a/%2e%2e/b/x" },
    });
    expect(res.status).toBe(400);
    expect((await dav("GET", "/dav/m/ab/secret.txt")).text).toBe("secret");
  });
});

describe("malformed input gets 4xx, never 500", () => {
  const lockBody = `<D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockinfo>`;
  it.each([
    ["PROPFIND bad XML", "PROPFIND", "/dav/m/", { depth: "0" }, "<D:propfind xmlns:D='DAV:'><D:prop>", 400],
    [
      "PROPFIND with a DOCTYPE",
      "PROPFIND",
      "/dav/m/",
      { depth: "0" },
      `<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><D:propfind xmlns:D="DAV:"><D:prop><D:e>&e;</D:e></D:prop></D:propfind>`,
      400,
    ],
    ["PROPFIND wrong root element", "PROPFIND", "/dav/m/", { depth: "0" }, `<x:y xmlns:x="urn:x"/>`, 400],
    ["PROPFIND unknown Depth", "PROPFIND", "/dav/m/", { depth: "2" }, undefined, 400],
    ["PROPPATCH bad XML", "PROPPATCH", "/dav/m/a/hello.txt", {}, "<nope", 400],
    ["PROPPATCH empty", "PROPPATCH", "/dav/m/a/hello.txt", {}, "", 400],
    ["COPY without Destination", "COPY", "/dav/m/a/hello.txt", {}, undefined, 400],
    ["MOVE without Destination", "MOVE", "/dav/m/a/hello.txt", {}, undefined, 400],
    [
      "COPY with a bad Overwrite",
      "COPY",
      "/dav/m/a/hello.txt",
      { destination: "/dav/m/a/c.txt", overwrite: "maybe" },
      undefined,
      400,
    ],
    ["COPY with Depth 1", "COPY", "/dav/m/a/", { destination: "/dav/m/b/a2", depth: "1" }, undefined, 400],
    [
      "MOVE with Depth 0",
      "MOVE",
      "/dav/m/a/hello.txt",
      { destination: "/dav/m/a/c.txt", depth: "0" },
      undefined,
      400,
    ],
    [
      "COPY to another host",
      "COPY",
      "/dav/m/a/hello.txt",
      { destination: "http://elsewhere.example/dav/m/a/c.txt" },
      undefined,
      502,
    ],
    ["COPY onto itself", "COPY", "/dav/m/a/hello.txt", { destination: "/dav/m/a/hello.txt" }, undefined, 403],
    ["COPY outside /dav", "COPY", "/dav/m/a/hello.txt", { destination: "/api/x" }, undefined, 502],
    ["LOCK bad XML", "LOCK", "/dav/m/a/hello.txt", {}, "<D:lockinfo", 400],
    [
      "LOCK without scope",
      "LOCK",
      "/dav/m/a/hello.txt",
      {},
      `<D:lockinfo xmlns:D="DAV:"><D:locktype><D:write/></D:locktype></D:lockinfo>`,
      400,
    ],
    ["LOCK with Depth 1", "LOCK", "/dav/m/a/", { depth: "1" }, lockBody, 400],
    ["LOCK refresh without If", "LOCK", "/dav/m/a/hello.txt", {}, undefined, 400],
    ["UNLOCK without Lock-Token", "UNLOCK", "/dav/m/a/hello.txt", {}, undefined, 400],
    [
      "UNLOCK with an unknown token",
      "UNLOCK",
      "/dav/m/a/hello.txt",
      { "lock-token": "<urn:uuid:nope>" },
      undefined,
      409,
    ],
    ["a malformed If header", "PUT", "/dav/m/a/hello.txt", { if: "(<urn:uuid:x" }, "x", 400],
    ["MKCOL with a body", "MKCOL", "/dav/m/a/withbody", {}, "<x/>", 415],
    ["MKCOL without a parent", "MKCOL", "/dav/m/a/no/such", {}, undefined, 409],
    ["PUT without a parent", "PUT", "/dav/m/a/no/such.txt", {}, "x", 409],
    ["a bad percent-encoding", "PROPFIND", "/dav/m/%zz", { depth: "0" }, undefined, 400],
    ["PUT above the mounts", "PUT", "/dav/loose.txt", {}, "x", 403],
    ["MKCOL above the mounts", "MKCOL", "/dav/newmount", {}, undefined, 403],
    ["DELETE a mount point", "DELETE", "/dav/m/", {}, undefined, 403],
    ["MOVE a mount point", "MOVE", "/dav/m", { destination: "/dav/m2" }, undefined, 403],
    ["DELETE the root", "DELETE", "/dav/", {}, undefined, 403],
    ["an unknown method", "REPORT", "/dav/m/", {}, undefined, 501],
  ])("%s", async (_label, method, url, headers, body, status) => {
    const res = await dav(method, url, { headers, body });
    expect(res.status, res.text).toBe(status);
  });

  it("answers Depth: infinity with the RFC's propfind-finite-depth", async () => {
    for (const headers of [{ depth: "infinity" }, {}] as Record<string, string>[]) {
      const res = await dav("PROPFIND", "/dav/m/", { headers });
      expect(res.status).toBe(403);
      expect(res.text).toContain("<D:propfind-finite-depth/>");
    }
  });
});

describe("reading", () => {
  it("GET on a LOCAL mount with 302_redirect streams through (LOCAL cannot presign), with validators and ranges", async () => {
    const res = await dav("GET", "/dav/m/a/hello.txt");
    expect(res.status).toBe(200);
    expect(res.text).toBe("hello");
    const etag = res.headers.get("etag")!;
    expect(etag).toMatch(/^".+"$/);
    expect((await dav("GET", "/dav/m/a/hello.txt", { headers: { "if-none-match": etag } })).status).toBe(304);
    const part = await dav("GET", "/dav/m/a/hello.txt", { headers: { range: "bytes=1-3" } });
    expect(part.status).toBe(206);
    expect(part.text).toBe("ell");
    expect((await dav("GET", "/dav/m/a/hello.txt", { headers: { "if-match": '"other"' } })).status).toBe(412);
    const head = await dav("HEAD", "/dav/m/a/hello.txt");
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length")).toBe("5");
  });

  it("streams the PROPFIND of a big directory page by page", async () => {
    const dir = path.join(storageRoot(), "big");
    mkdirSync(dir, { recursive: true });
    for (let i = 0; i < 2500; i++) writeFileSync(path.join(dir, `f${String(i).padStart(5, "0")}.txt`), "x");
    const res = await t.app.request("/dav/m/big/", {
      method: "PROPFIND",
      headers: { authorization: ADMIN, depth: "1" },
    });
    expect(res.status).toBe(207);
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let chunks = 0;
    let xml = "";
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks++;
      xml += decoder.decode(value, { stream: true });
    }
    expect(chunks).toBeGreaterThanOrEqual(4); // opening, self, three pages, closing: never one big string
    expect(xml.match(/<D:response>/g)).toHaveLength(2501);
    expect(xml).toContain("<D:href>/dav/m/big/f02499.txt</D:href>");
    expect(xml.trimEnd().endsWith("</D:multistatus>")).toBe(true);
  });
});

describe("writing", () => {
  it("PUT honours If-None-Match: * and If-Match", async () => {
    expect(
      (await dav("PUT", "/dav/m/a/cond.txt", { body: "1", headers: { "if-none-match": "*" } })).status,
    ).toBe(201);
    expect(
      (await dav("PUT", "/dav/m/a/cond.txt", { body: "2", headers: { "if-none-match": "*" } })).status,
    ).toBe(412);
    expect(
      (await dav("PUT", "/dav/m/a/cond.txt", { body: "2", headers: { "if-match": '"nope"' } })).status,
    ).toBe(412);
    const etag = (await dav("HEAD", "/dav/m/a/cond.txt")).headers.get("etag")!;
    expect((await dav("PUT", "/dav/m/a/cond.txt", { body: "3", headers: { "if-match": etag } })).status).toBe(
      204,
    );
    expect((await dav("GET", "/dav/m/a/cond.txt")).text).toBe("3");
  });

  it("a cut upload leaves nothing behind", async () => {
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 3) {
          controller.error(new Error("connection reset"));
          return;
        }
        sent++;
        controller.enqueue(new Uint8Array(256 * 1024).fill(65));
      },
    });
    const res = await dav("PUT", "/dav/m/a/cut.bin", { body });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect((await dav("GET", "/dav/m/a/cut.bin")).status).toBe(404);
  });

  it("multipart upload mode writes in parts and the file reads back identical", async () => {
    const set = await t.request("PUT", "/api/admin/system-settings", {
      token,
      body: { webdav_upload_mode: "multipart" },
    });
    expect(set.status, set.text).toBe(200);
    try {
      const bytes = Buffer.alloc(9 * 1024 * 1024 + 123);
      for (let i = 0; i < bytes.length; i += 4096) bytes[i] = (i / 4096) % 251;
      expect((await dav("PUT", "/dav/m/a/parts.bin", { body: bytes })).status).toBe(201);
      const res = await t.app.request("/dav/m/a/parts.bin", { headers: { authorization: ADMIN } });
      expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);
    } finally {
      await t.request("PUT", "/api/admin/system-settings", { token, body: { webdav_upload_mode: "direct" } });
    }
  });

  it("refuses a PUT larger than the maximum upload size", async () => {
    await t.request("PUT", "/api/admin/system-settings", {
      token,
      body: { max_upload_size: 1, max_upload_size_unit: "KB" },
    });
    try {
      const res = await dav("PUT", "/dav/m/a/big.bin", { body: Buffer.alloc(4096) });
      expect(res.status).toBe(413);
      expect((await dav("GET", "/dav/m/a/big.bin")).status).toBe(404);
    } finally {
      await t.request("PUT", "/api/admin/system-settings", {
        token,
        body: { max_upload_size: 100, max_upload_size_unit: "MB" },
      });
    }
  });
});

describe("locks across instances sharing one database", () => {
  let other: AppContext;
  let otherApp: ReturnType<typeof createApp>;
  beforeAll(async () => {
    other = await createContext(t.config, { log: createLogger("silent") });
    otherApp = createApp(other);
  });
  afterAll(async () => other.close());

  it("a lock taken on one instance binds the other", async () => {
    expect((await dav("PUT", "/dav/m/a/shared.txt", { body: "v1" })).status).toBe(201);
    const locked = await dav("LOCK", "/dav/m/a/shared.txt", {
      headers: { timeout: "Second-600" },
      body: `<D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype><D:owner>tester</D:owner></D:lockinfo>`,
    });
    expect(locked.status).toBe(200);
    const lockToken = /^<(.+)>$/.exec(locked.headers.get("lock-token")!)![1]!;
    expect(locked.text).toContain(lockToken);

    const blocked = await dav("PUT", "/dav/m/a/shared.txt", { body: "v2", app: otherApp });
    expect(blocked.status).toBe(423);
    expect(blocked.text).toContain("lock-token-submitted");
    // Another principal holding the token still may not use it.
    const stranger = await dav("PUT", "/dav/m/a/shared.txt", {
      auth: basic(rw, rw),
      body: "v2",
      headers: { if: `(<${lockToken}>)` },
      app: otherApp,
    });
    expect(stranger.status).toBe(423);
    const again = await dav("LOCK", "/dav/m/a/shared.txt", {
      app: otherApp,
      body: `<D:lockinfo xmlns:D="DAV:"><D:lockscope><D:shared/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockinfo>`,
    });
    expect(again.status).toBe(423);
    const discovered = await dav("PROPFIND", "/dav/m/a/shared.txt", {
      app: otherApp,
      headers: { depth: "0" },
      body: `<D:propfind xmlns:D="DAV:"><D:prop><D:lockdiscovery/></D:prop></D:propfind>`,
    });
    expect(discovered.text).toContain(lockToken);

    const allowed = await dav("PUT", "/dav/m/a/shared.txt", {
      body: "v2",
      headers: { if: `(<${lockToken}>)` },
      app: otherApp,
    });
    expect(allowed.status).toBe(204);
    expect(
      (
        await dav("UNLOCK", "/dav/m/a/shared.txt", {
          headers: { "lock-token": `<${lockToken}>` },
          app: otherApp,
        })
      ).status,
    ).toBe(204);
    expect((await dav("PUT", "/dav/m/a/shared.txt", { body: "v3" })).status).toBe(204);
    expect((await dav("GET", "/dav/m/a/shared.txt", { app: otherApp })).text).toBe("v3");
  });
});
