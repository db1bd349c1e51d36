/**
 * The headers every response carries (request id, security headers, the
 * instance name) are set on Node's response before the handler runs when the
 * request comes through the Node server (http/response-headers.ts). Over a real
 * socket, answers of every kind must carry them exactly as in-process ones do,
 * and request headers must be read the same way (request id, credentials).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listenTestApp } from "../support/listen";
import { createTestApp, type TestApp } from "../support/test-app";

let t: TestApp;
let token: string;
let server: Awaited<ReturnType<typeof listenTestApp>>;
let pdfSlug: string;

beforeAll(async () => {
  t = await createTestApp({ INSTANCE_NAME: "node-a" });
  token = await t.adminToken();
  server = await listenTestApp(t);
  const up = await t.request("PUT", "/api/upload-direct/report.pdf", {
    token,
    rawBody: "%PDF-1.4\n%%EOF\n",
    headers: { "content-type": "application/pdf" },
  });
  expect(up.status).toBe(201);
  pdfSlug = up.body.data.slug;
  const paste = await t.request("POST", "/api/paste", {
    token,
    body: { content: "hello", slug: "hdr-paste" },
  });
  expect(paste.status).toBe(201);
});
afterAll(async () => {
  await server.close();
  await t.close();
});

/** Answers of each kind: small JSON, JSON error, plain text, visitor JSON with its own headers, a streamed file, HEAD, the web app. */
const CASES: Array<[label: string, method: string, path: () => string, status: number]> = [
  ["health", "GET", () => "/api/health", 200],
  ["unknown API path", "GET", () => "/api/no-such-thing", 404],
  ["raw paste", "GET", () => "/api/raw/hdr-paste", 200],
  ["raw paste that does not exist", "GET", () => "/api/raw/missing-paste", 404],
  ["paste view", "GET", () => "/api/paste/hdr-paste", 200],
  ["file view", "GET", () => `/api/file-view/${pdfSlug}`, 200],
  ["file HEAD", "HEAD", () => `/api/file-view/${pdfSlug}`, 200],
  ["web app", "GET", () => "/", 200],
];

const FIXED = ["x-content-type-options", "referrer-policy", "x-clipshare-instance"];

describe("headers on every response, over a socket", () => {
  it.each(CASES.map((c) => [c[0], c] as const))(
    "%s: same fixed headers and request id as in-process",
    async (_label, [, method, path, status]) => {
      const path_ = path();
      const overSocket = await fetch(`${server.base}${path_}`, {
        method,
        headers: { "x-request-id": "probe-123" },
      });
      await overSocket.arrayBuffer();
      const inProcess = await t.app.request(path_, { method, headers: { "x-request-id": "probe-123" } });
      expect(overSocket.status).toBe(status);
      expect(inProcess.status).toBe(status);
      expect(overSocket.headers.get("x-request-id")).toBe("probe-123");
      expect(inProcess.headers.get("x-request-id")).toBe("probe-123");
      for (const name of FIXED) {
        expect(overSocket.headers.get(name), name).toBeTruthy();
        expect(overSocket.headers.get(name), name).toBe(inProcess.headers.get(name));
      }
      expect(overSocket.headers.get("x-content-type-options")).toBe("nosniff");
      expect(overSocket.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
      expect(overSocket.headers.get("x-clipshare-instance")).toBe("node-a");
      // Each header once: a fixed header the handler also sets must not be sent twice.
      expect(overSocket.headers.get("x-content-type-options")).not.toContain(",");
    },
  );

  it.each([
    ["paste view", "/api/paste/hdr-paste"],
    ["raw paste", "/api/raw/hdr-paste"],
    ["raw paste that does not exist", "/api/raw/missing-paste"],
  ])("%s: the visitor headers and body are the ones in-process gives", async (_label, path) => {
    const overSocket = await fetch(`${server.base}${path}`);
    const inProcess = await t.app.request(path);
    const own = [
      "cache-control",
      "x-robots-tag",
      "content-security-policy",
      "content-type",
      "content-disposition",
    ];
    for (const name of own) expect(overSocket.headers.get(name), name).toBe(inProcess.headers.get(name));
    expect(overSocket.headers.get("cache-control")).toBe("no-store");
    expect(overSocket.headers.get("x-robots-tag")).toBe("noindex");
    const [socketBody, inProcessBody] = [await overSocket.text(), await inProcess.text()];
    // The view count differs by one between the two answers; everything else is the same text.
    const uncount = (body: string) => body.replace(/"(views|remainingViews)":\d+/g, '"$1":0');
    expect(uncount(socketBody)).toBe(uncount(inProcessBody));
  });

  it("answers many concurrent raw views each with its own complete text answer", async () => {
    const answers = await Promise.all(
      Array.from({ length: 40 }, () => fetch(`${server.base}/api/raw/hdr-paste`)),
    );
    for (const res of answers) {
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
      expect(res.headers.get("content-disposition")).toBe('inline; filename="hdr-paste.txt"');
      expect(await res.text()).toBe("hello");
    }
  });

  it("gives each request its own id when the client sends none or an unusable one", async () => {
    const ids = new Set<string | null>();
    for (const sent of [undefined, undefined, "bad id with spaces"]) {
      const res = await fetch(`${server.base}/api/health`, { headers: sent ? { "x-request-id": sent } : {} });
      ids.add(res.headers.get("x-request-id"));
    }
    expect(ids.size).toBe(3);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("serves an inline PDF with the PDF policy and nothing else with it", async () => {
    const res = await fetch(`${server.base}/api/file-view/${pdfSlug}`);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    const policy = res.headers.get("content-security-policy") ?? "";
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("frame-ancestors 'self'");
    expect(policy).not.toContain("sandbox");
    expect(await res.text()).toBe("%PDF-1.4\n%%EOF\n");
  });

  it("reads credentials from the request as in-process: a token signs in, a bad one is refused", async () => {
    const mine = await fetch(`${server.base}/api/pastes`, { headers: { authorization: `Bearer ${token}` } });
    expect(mine.status).toBe(200);
    const bad = await fetch(`${server.base}/api/pastes`, {
      headers: { authorization: "Bearer not-a-token" },
    });
    expect(bad.status).toBe(401);
    expect(((await bad.json()) as { error: string }).error).toBe("token_expired");
  });
});
