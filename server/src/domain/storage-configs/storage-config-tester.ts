/**
 * POST /s3-configs/:id/test: proves a config works end to end before anyone
 * relies on it — write, read back, list, presigned PUT/GET where supported,
 * and whether a browser on this origin may upload directly (CORS).
 */
import { randomBytes } from "node:crypto";
import { Readable } from "node:stream";
import type { StorageCheck, StorageConfigDto, StorageTestOutcome } from "@clipshare/shared";
import type { SafeFetcher } from "../../lib/net/safe-fetch";
import { backendText } from "../../storage/errors";
import type { StorageDriver, StorageEntry } from "../../storage/types";

export type ConnectionInfo = StorageTestOutcome["result"]["connectionInfo"];

/** What the test tells about where it connected; a LOCAL config names its directory as the endpoint. */
export function connectionInfoOf(config: StorageConfigDto): ConnectionInfo {
  return {
    bucket: config.bucket_name,
    endpoint: config.endpoint_url,
    region: config.region,
    pathStyle: config.path_style,
    provider: config.provider_type,
    defaultFolder: config.default_folder,
    customHost: config.custom_host,
    signatureExpiresIn: config.signature_expires_in,
  };
}

const TLS_TRUST_CODES = new Set([
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "SELF_SIGNED_CERT_IN_CHAIN",
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
  "CERT_HAS_EXPIRED",
  "ERR_TLS_CERT_ALTNAME_INVALID",
]);

/**
 * What the admin should look at when a check fails, from what the backend
 * said: the address, the login, the folder, the certificate or the rights.
 */
export function hintFor(e: unknown): string | null {
  const err = e as { status?: number; error?: string; details?: { code?: string; status?: number } };
  const code = err.details?.code ?? "";
  const upstream = err.details?.status;
  const text = (backendText(e) ?? (e as Error).message ?? "").toLowerCase();
  if (TLS_TRUST_CODES.has(code) || /certificate/.test(text))
    return "The server's TLS certificate is not trusted: use a certificate from a public CA, or add its CA to STORAGE_CA_FILE";
  if (upstream === 401 || code === "530" || /authenticat|login incorrect|not logged in/.test(text))
    return "The server refused the user name or password";
  if (err.error === "storage_unreachable")
    return "The server did not answer: check the host, the port and that it is running; a host on a private network must be listed in STORAGE_ENDPOINT_ALLOW";
  if (err.error === "storage_endpoint_not_allowed" || err.error === "url_not_allowed")
    return "Add the host (or host:port) to STORAGE_ENDPOINT_ALLOW to use storage on a private network";
  if (upstream === 403 || err.status === 403 || code === "3")
    return "The user may not write here: check its rights on the folder";
  if (err.status === 404 || upstream === 404 || upstream === 409)
    return "The URL or folder does not exist on the server: check the endpoint path and the folder";
  return null;
}

async function check(
  note: string,
  fn: () => Promise<Record<string, unknown> | undefined>,
): Promise<StorageCheck> {
  const started = performance.now();
  try {
    const extra = (await fn()) ?? {};
    return {
      success: true,
      error: null,
      note,
      durationMs: Math.round(performance.now() - started),
      ...extra,
    };
  } catch (e) {
    return {
      success: false,
      // The admin testing a config needs the backend's own words to fix it.
      error: backendText(e) ?? (e as Error).message,
      hint: hintFor(e),
      note,
      durationMs: Math.round(performance.now() - started),
    };
  }
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

/**
 * One request to a presigned URL, as a browser would make it, but through the
 * endpoint's SafeFetcher: the same address rules as the driver, and a redirect
 * is answered as it is, never followed.
 */
async function request(
  fetcher: SafeFetcher,
  url: string,
  init: { method: string; headers?: Record<string, string>; body?: Buffer },
) {
  const res = await fetcher.open(url, { ...init, followRedirects: false, maxBytes: 1024 * 1024 });
  const body = await readAll(res.body);
  const header = (name: string) => {
    const v = res.headers[name.toLowerCase()];
    return (Array.isArray(v) ? v.join(", ") : v) ?? null;
  };
  return { ok: res.status >= 200 && res.status <= 299, status: res.status, header, body };
}

export async function testStorage(
  driver: StorageDriver,
  options: { origin: string | null; fetcher: SafeFetcher; connection: ConnectionInfo },
): Promise<StorageTestOutcome & { summary: string }> {
  const { fetcher } = options;
  const probe = `.clipshare-test-${randomBytes(6).toString("hex")}.txt`;
  const payload = Buffer.from(`ClipShare storage check ${new Date().toISOString()}\n`);

  const write = await check("Upload a small object", async () => {
    await driver.write(probe, Readable.from([payload]), { size: payload.length, contentType: "text/plain" });
    return undefined;
  });
  // The key the server showed (also when it was refused), so an admin can compare and pin it.
  const identity = driver.serverIdentity?.();
  if (identity) write.hostKey = identity;
  const read = await check("Read it back and compare", async () => {
    const result = await driver.read(probe);
    const body = await readAll(result.body);
    if (!body.equals(payload)) throw new Error("Read bytes differ from the written ones");
    return { size: result.size };
  });
  let listed: StorageEntry[] = [];
  const list = await check("List the root folder", async () => {
    listed = (await driver.list("", { limit: 20 })).entries;
    return {
      objectCount: listed.length,
      firstObjects: listed
        .slice(0, 5)
        .map((e) => ({ name: e.name, size: e.size, isDirectory: e.isDirectory })),
    };
  });
  // 0.7.3's details window reads the listing from the read check, objects by key.
  if (read.success && list.success) {
    Object.assign(read, {
      prefix: options.connection.defaultFolder,
      objectCount: listed.length,
      firstObjects: listed.slice(0, 5).map((e) => ({
        key: e.path,
        size: e.size,
        lastModified: e.modified?.toISOString() ?? null,
      })),
    });
  }

  let presign: StorageCheck;
  let cors: StorageCheck;
  if (driver.capabilities.presignWrite && driver.presignWrite && driver.presignRead) {
    const presignWrite = driver.presignWrite.bind(driver);
    const presignRead = driver.presignRead.bind(driver);
    const key = `.clipshare-test-${randomBytes(6).toString("hex")}-presigned.txt`;
    presign = await check("Upload and download through presigned URLs (what browsers do)", async () => {
      const put = await presignWrite(key, { contentType: "text/plain", expiresIn: 300 });
      const putRes = await request(fetcher, put.url, {
        method: "PUT",
        headers: { ...put.headers, "content-type": "text/plain" },
        body: payload,
      });
      if (!putRes.ok) throw new Error(`Presigned PUT answered HTTP ${putRes.status}`);
      const get = await presignRead(key, { expiresIn: 300 });
      const getRes = await request(fetcher, get.url, { method: "GET" });
      if (!getRes.ok) throw new Error(`Presigned GET answered HTTP ${getRes.status}`);
      if (!getRes.body.equals(payload)) throw new Error("Presigned download differs");
      return undefined;
    });
    cors = await check("Browser CORS preflight for direct uploads", async () => {
      if (!options.origin)
        return { skipped: true, hint: "Call this test from the web app to check CORS for its origin" };
      const put = await presignWrite(key, { contentType: "text/plain", expiresIn: 300 });
      const res = await request(fetcher, put.url, {
        method: "OPTIONS",
        headers: {
          Origin: options.origin,
          "Access-Control-Request-Method": "PUT",
          "Access-Control-Request-Headers": "content-type",
        },
      });
      const allowed = res.header("access-control-allow-origin");
      if (!allowed || (allowed !== "*" && allowed !== options.origin)) {
        throw new Error(
          `The bucket does not allow uploads from ${options.origin}: add a CORS rule allowing PUT from this origin and exposing ETag`,
        );
      }
      // Expose-Headers belongs to the actual response, not the preflight: make the real PUT.
      const real = await request(fetcher, put.url, {
        method: "PUT",
        headers: { ...put.headers, "content-type": "text/plain", Origin: options.origin },
        body: payload,
      });
      const exposes = (real.header("access-control-expose-headers") ?? "").toLowerCase();
      return {
        exposesEtag: exposes.includes("etag"),
        hint: exposes.includes("etag") ? null : "Expose the ETag header in the bucket's CORS rule",
      };
    });
    await driver.remove(key).catch(() => undefined);
  } else {
    presign = {
      success: true,
      error: null,
      note: "Uploads go through the ClipShare server (no presigned URLs for this storage)",
      durationMs: 0,
      skipped: true,
    };
    cors = {
      success: true,
      error: null,
      note: "Not needed: browsers upload to ClipShare itself",
      durationMs: 0,
      skipped: true,
    };
  }
  await driver.remove(probe).catch(() => undefined);

  const success = write.success && read.success && list.success && presign.success && cors.success;
  const failed = Object.entries({ write, read, list, presign, cors })
    .filter(([, r]) => !r.success)
    .map(([k]) => k);
  return {
    success,
    summary: success ? "Storage config test succeeded" : `Storage config test failed: ${failed.join(", ")}`,
    result: {
      write,
      read,
      list,
      presign,
      cors,
      frontendSim: browserUploadSummary(presign, cors),
      connectionInfo: options.connection,
    },
  };
}

/**
 * The browser-side checks (presigned upload, CORS) as one result under the
 * name 0.7.3 clients read, with each check as a step.
 */
function browserUploadSummary(presign: StorageCheck, cors: StorageCheck) {
  const step = (r: StorageCheck) => ({
    name: r.note,
    success: r.success,
    duration: r.durationMs,
    ...(r.error ? { error: r.error } : {}),
  });
  const failedStep = [presign, cors].find((r) => !r.success);
  return {
    success: !failedStep,
    error: failedStep?.error ?? null,
    note: "What a browser does to upload directly: presigned upload URL and CORS",
    durationMs: presign.durationMs + cors.durationMs,
    steps: { step1: step(presign), step2: step(cors) },
  };
}
