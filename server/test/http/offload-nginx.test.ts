/**
 * DOWNLOAD_OFFLOAD=x-accel-redirect behind Debian's nginx: ClipShare
 * authorizes, counts and sets the headers, nginx sends the LOCAL file body
 * from an internal location aliased to the data dir.
 */
import { createHash, randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasNginx, startNginx } from "../../../scripts/test-services/nginx.mjs";
import { listenTestApp } from "../support/listen";
import { createTestApp, type TestApp } from "../support/test-app";

const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");
const bytes = randomBytes(3 * 1024 * 1024 + 17);

describe.runIf(hasNginx())("downloads offloaded to nginx with X-Accel-Redirect", () => {
  let t: TestApp;
  let server: Awaited<ReturnType<typeof listenTestApp>>;
  let nginx: { base: string; stop(): Promise<void> };
  let app: string;
  let slug: string;
  let storedUri: string;

  beforeAll(async () => {
    t = await createTestApp({ DOWNLOAD_OFFLOAD: "x-accel-redirect" });
    server = await listenTestApp(t);
    app = server.base;
    nginx = await startNginx({
      locations: () => `
    location /_clipshare_files/ {
      internal;
      alias ${t.dataDir}/;
      etag off;
      add_header ETag $upstream_http_etag;
      add_header Content-Security-Policy $upstream_http_content_security_policy;
      add_header X-Content-Type-Options $upstream_http_x_content_type_options;
      add_header X-Request-Id $upstream_http_x_request_id;
    }
    location / {
      proxy_pass ${app};
      proxy_set_header Host $http_host;
    }`,
    });
    const up = await t.request("PUT", "/api/upload-direct/clip%20ü.webm", {
      token: await t.adminToken(),
      rawBody: bytes,
      headers: { "content-type": "video/webm" },
    });
    expect(up.status).toBe(201);
    slug = up.body.data.slug;
  });
  afterAll(async () => {
    await nginx?.stop();
    await server?.close();
    await t?.close();
  });

  const views = async () => (await t.request("GET", `/api/public/files/${slug}`)).body.data.views as number;

  it("ClipShare answers a download with the header and no body; nginx sends the exact bytes with ClipShare's headers", async () => {
    const direct = await fetch(`${app}/api/file-view/${slug}`);
    storedUri = direct.headers.get("x-accel-redirect")!;
    expect(storedUri).toMatch(/^\/_clipshare_files\//);
    expect((await direct.arrayBuffer()).byteLength).toBe(0);

    const before = await views();
    const res = await fetch(`${nginx.base}/api/file-download/${slug}`);
    const body = Buffer.from(await res.arrayBuffer());
    expect(res.status).toBe(200);
    expect(sha(body)).toBe(sha(bytes));
    expect(res.headers.get("x-accel-redirect")).toBeNull();
    expect(res.headers.get("content-type")).toBe("video/webm");
    expect(res.headers.get("content-disposition")).toBe(
      "attachment; filename=\"clip _.webm\"; filename*=UTF-8''clip%20%C3%BC.webm",
    );
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("content-security-policy")).toContain("sandbox");
    expect(res.headers.get("etag")).toBe(direct.headers.get("etag"));
    expect(await views()).toBe(before + 1);
  });

  it("nginx answers Range from the file; ClipShare still answers If-None-Match", async () => {
    const part = await fetch(`${nginx.base}/api/file-view/${slug}`, {
      headers: { range: "bytes=100-1048675" },
    });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes 100-1048675/${bytes.length}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(100, 1048676))).toBe(true);

    const head = await fetch(`${nginx.base}/api/file-view/${slug}`, { method: "HEAD" });
    expect(head.headers.get("content-length")).toBe(String(bytes.length));
    const cached = await fetch(`${nginx.base}/api/file-view/${slug}`, {
      headers: { "if-none-match": head.headers.get("etag")! },
    });
    expect(cached.status).toBe(304);
  });

  it("the internal location cannot be reached directly", async () => {
    const res = await fetch(`${nginx.base}${storedUri}`);
    expect(res.status).toBe(404);
    expect((await res.text()).includes(bytes.subarray(0, 64).toString("latin1"))).toBe(false);
  });
});
