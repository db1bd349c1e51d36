/**
 * WebDAV over a real socket, with a real client: the raw request targets that
 * an in-process Request would normalize away (encoded dot segments,
 * fragments), and rclone's WebDAV backend (Debian) copying a tree with a
 * 200 MB file up and back byte-identical, refused writes with a read-only
 * key and paths outside a key's base path. With the test S3 server, the same
 * round trip on an S3 mount with redirected downloads and multipart uploads.
 */
import { execFile, spawnSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import {
  createReadStream,
  createWriteStream,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { Permission } from "@clipshare/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveApp } from "../../src/http/node-server";
import { createMount, createS3Config, defaultLocalStorage } from "../support/fs-helpers";
import { describeS3 } from "../support/s3-env";
import { ADMIN_PASSWORD, ADMIN_USERNAME, createTestApp, type TestApp } from "../support/test-app";

const run = promisify(execFile);
const hasRclone = spawnSync("rclone", ["version"]).status === 0;
if (!hasRclone && process.env.CLIPSHARE_REQUIRE_SERVICES === "1") {
  throw new Error("rclone is not installed (apt-get install rclone)");
}

let t: TestApp;
let token: string;
let server: ReturnType<typeof serveApp>;
let base: string;
let work: string;
const DAV_BITS = Permission.WEBDAV_READ | Permission.WEBDAV_MANAGE;

beforeAll(async () => {
  t = await createTestApp();
  token = await t.adminToken();
  await createMount(t, await defaultLocalStorage(t), "/m", { name: "m", webdav_policy: "native_proxy" });
  // rclone's 200 MB file is over the default 100 MB upload limit.
  await t.request("PUT", "/api/admin/system-settings", {
    token,
    body: { max_upload_size: 1, max_upload_size_unit: "GB" },
  });
  await new Promise<void>((resolve) => {
    server = serveApp(t.app, { port: 0, hostname: "127.0.0.1", log: t.ctx.log }, () => resolve());
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  work = mkdtempSync(path.join(os.tmpdir(), "clipshare-dav-"));
});

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await t?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

/** A request with the target exactly as given (Node's client does not normalize paths). */
function rawRequest(method: string, target: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const auth = Buffer.from(`${ADMIN_USERNAME}:${ADMIN_PASSWORD}`).toString("base64");
    const req = http.request(
      `${base}/`,
      { method, path: target, headers: { authorization: `Basic ${auth}` } },
      (res) => {
        let body = "";
        res.on("data", (d) => {
          body += d;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on("error", reject);
    req.end();
  });
}

describe("raw request targets", () => {
  it("refuses encoded dot segments and fragments before anything happens", async () => {
    await rawRequest("MKCOL", "/dav/m/frag");
    await rawRequest("MKCOL", "/dav/m/frag/inner");
    expect((await rawRequest("GET", "/dav/m/frag/%2e%2e/frag")).status).toBe(400);
    expect((await rawRequest("GET", "/dav/m/frag/%2E%2E/%2e%2e/etc/passwd")).status).toBe(400);
    expect((await rawRequest("DELETE", "/dav/m/frag/#inner")).status).toBe(400);
    expect((await rawRequest("PROPFIND", "/dav/m/frag/inner")).status).toBe(403); // no Depth: infinity refused
    expect((await rawRequest("DELETE", "/dav/m/frag/")).status).toBe(204);
  });
});

/** Lists every file under a directory, relative, hidden temp directories included. */
function filesUnder(dir: string, prefix = ""): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? filesUnder(path.join(dir, d.name), `${prefix}${d.name}/`) : [`${prefix}${d.name}`],
  );
}

describe("uploads over a socket", () => {
  const setting = (body: Record<string, unknown>) =>
    t.request("PUT", "/api/admin/system-settings", { token, body });

  it.each(["direct", "multipart"])(
    "a connection cut in the middle of a PUT leaves nothing (%s)",
    async (mode) => {
      await setting({ webdav_upload_mode: mode });
      try {
        const before = filesUnder(path.join(t.dataDir, "files"));
        const auth = Buffer.from(`${ADMIN_USERNAME}:${ADMIN_PASSWORD}`).toString("base64");
        await new Promise<void>((resolve) => {
          const req = http.request(`${base}/dav/m/cut-${mode}.bin`, {
            method: "PUT",
            headers: { authorization: `Basic ${auth}`, "content-length": String(40 * 1024 * 1024) },
          });
          req.on("error", () => resolve());
          req.on("response", () => resolve());
          // 12 MiB (more than one part), then the connection drops.
          for (let i = 0; i < 12; i++) req.write(Buffer.alloc(1024 * 1024, i));
          setTimeout(() => req.destroy(), 300);
        });
        // The server notices the cut and cleans up.
        for (let i = 0; i < 50; i++) {
          if (
            (await rawRequest("GET", `/dav/m/cut-${mode}.bin`)).status === 404 &&
            filesUnder(path.join(t.dataDir, "files")).length === before.length
          )
            break;
          await new Promise((r) => setTimeout(r, 100));
        }
        expect((await rawRequest("GET", `/dav/m/cut-${mode}.bin`)).status).toBe(404);
        expect(filesUnder(path.join(t.dataDir, "files"))).toEqual(before);
      } finally {
        await setting({ webdav_upload_mode: "direct" });
      }
    },
  );

  it("a body over the upload limit gets 413, not a reset connection", async () => {
    await setting({ max_upload_size: 64, max_upload_size_unit: "KB" });
    try {
      const auth = Buffer.from(`${ADMIN_USERNAME}:${ADMIN_PASSWORD}`).toString("base64");
      const status = await new Promise<number>((resolve, reject) => {
        // Chunked: the size is not announced, so the limit trips while streaming.
        const req = http.request(
          `${base}/dav/m/too-big.bin`,
          { method: "PUT", headers: { authorization: `Basic ${auth}` } },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        req.on("error", reject);
        for (let i = 0; i < 8; i++) req.write(Buffer.alloc(64 * 1024, 1));
        req.end();
      });
      expect(status).toBe(413);
      expect((await rawRequest("GET", "/dav/m/too-big.bin")).status).toBe(404);
    } finally {
      await setting({ max_upload_size: 1, max_upload_size_unit: "GB" });
    }
  });
});

// ---- rclone ---------------------------------------------------------------

async function obscure(password: string): Promise<string> {
  const { stdout } = await run("rclone", ["obscure", password]);
  return stdout.trim();
}

/** Runs rclone with an on-the-fly remote "dav" (no config file); resolves with the exit code and output. */
async function rclone(remote: { url: string; user: string; pass: string }, args: string[]) {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    RCLONE_CONFIG: "/dev/null",
    RCLONE_CONFIG_DAV_TYPE: "webdav",
    RCLONE_CONFIG_DAV_URL: remote.url,
    RCLONE_CONFIG_DAV_VENDOR: "other",
    RCLONE_CONFIG_DAV_USER: remote.user,
    RCLONE_CONFIG_DAV_PASS: await obscure(remote.pass),
  };
  delete env.AWS_CA_BUNDLE;
  return new Promise<{ code: number; output: string }>((resolve) => {
    execFile(
      "rclone",
      ["--retries", "1", "--low-level-retries", "1", "--contimeout", "10s", "--timeout", "60s", ...args],
      { env, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
        resolve({ code, output: `${stdout}${stderr}` });
      },
    );
  });
}

async function sha256(file: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(file)) hash.update(chunk);
  return hash.digest("hex");
}

/** A tree of mixed files: text, an empty file, a non-ASCII name, nesting, and one big file. */
async function makeTree(root: string, bigBytes: number): Promise<Record<string, string>> {
  mkdirSync(path.join(root, "docs", "deep", "deeper"), { recursive: true });
  mkdirSync(path.join(root, "empty-dir"), { recursive: true });
  writeFileSync(path.join(root, "readme.md"), "# Hello\n\nA tree for the WebDAV round trip.\n");
  writeFileSync(path.join(root, "empty.txt"), "");
  writeFileSync(path.join(root, "docs", "Grüße – 你好.txt"), "non-ASCII name\n");
  writeFileSync(path.join(root, "docs", "deep", "deeper", "data.bin"), randomBytes(300_000));
  for (let i = 0; i < 20; i++)
    writeFileSync(path.join(root, "docs", `note-${i}.txt`), `note ${i}\n`.repeat(i * 10));
  const big = path.join(root, "big.bin");
  await new Promise<void>((resolve, reject) => {
    const out = createWriteStream(big);
    out.on("error", reject);
    out.on("finish", resolve);
    const block = randomBytes(1024 * 1024);
    let written = 0;
    const pump = () => {
      while (written < bigBytes) {
        const size = Math.min(block.length, bigBytes - written);
        // Vary each block so the file is not a repetition of one MiB.
        block.writeUInt32LE(Math.floor(written / 1024), 0);
        written += size;
        if (!out.write(Buffer.from(block.subarray(0, size)))) {
          out.once("drain", pump);
          return;
        }
      }
      out.end();
    };
    pump();
  });
  return { "big.bin": await sha256(big) };
}

describe.skipIf(!hasRclone)("rclone round trip", () => {
  it("copies a tree with a 200 MB file up and back, byte-identical", async () => {
    const key = await t.createApiKey(DAV_BITS);
    const remote = { url: `${base}/dav/m`, user: "rclone", pass: key.key };
    const src = path.join(work, "src");
    const back = path.join(work, "back");
    const hashes = await makeTree(src, 200 * 1024 * 1024);

    const up = await rclone(remote, ["copy", src, "dav:tree", "--create-empty-src-dirs"]);
    expect(up.code, up.output).toBe(0);
    const down = await rclone(remote, ["copy", "dav:tree", back, "--create-empty-src-dirs"]);
    expect(down.code, down.output).toBe(0);
    const local = await rclone(remote, ["check", src, back]);
    expect(local.code, local.output).toBe(0);
    // WebDAV offers no hashes for "other" servers: compare the remote by downloading it.
    const remoteCheck = await rclone(remote, ["check", "--download", src, "dav:tree"]);
    expect(remoteCheck.code, remoteCheck.output).toBe(0);
    expect(await sha256(path.join(back, "big.bin"))).toBe(hashes["big.bin"]);
    rmSync(back, { recursive: true, force: true });
  }, 300_000);

  it("refuses writes with a read-only key, and paths outside a key's base path", async () => {
    const small = path.join(work, "small");
    mkdirSync(small, { recursive: true });
    writeFileSync(path.join(small, "x.txt"), "x");
    expect((await rawRequest("MKCOL", "/dav/m/a")).status).toBe(201);
    expect((await rawRequest("MKCOL", "/dav/m/b")).status).toBe(201);

    const readOnly = await t.createApiKey(Permission.WEBDAV_READ);
    const ro = { url: `${base}/dav/m`, user: readOnly.key, pass: readOnly.key };
    const listed = await rclone(ro, ["lsf", "dav:"]);
    expect(listed.code, listed.output).toBe(0);
    expect(listed.output).toContain("a/");
    const write = await rclone(ro, ["copy", small, "dav:a/ro"]);
    expect(write.code).not.toBe(0);
    expect(write.output).toMatch(/403|Forbidden/i);

    const confinedKey = await t.createApiKey(DAV_BITS, { basic_path: "/m/a" });
    const inside = { url: `${base}/dav/m/a`, user: confinedKey.key, pass: confinedKey.key };
    const ok = await rclone(inside, ["copy", small, "dav:mine"]);
    expect(ok.code, ok.output).toBe(0);
    const outside = { url: `${base}/dav/m/b`, user: confinedKey.key, pass: confinedKey.key };
    const refused = await rclone(outside, ["copy", small, "dav:theirs"]);
    expect(refused.code).not.toBe(0);
    expect(refused.output).toMatch(/403|Forbidden/i);
    const peek = await rclone(outside, ["lsf", "dav:"]);
    expect(peek.code).not.toBe(0);
    expect((await rawRequest("GET", "/dav/m/b/theirs/x.txt")).status).toBe(404);
    expect((await rawRequest("GET", "/dav/m/a/mine/x.txt")).status).toBe(200);
  }, 120_000);
});

describeS3("rclone round trip on S3", (s3) => {
  it("uploads in multipart mode and downloads through presigned redirects", async () => {
    const configId = await createS3Config(t, s3, "webdav-rclone", { is_public: true });
    const mount = await t.request("POST", "/api/admin/mounts", {
      token,
      body: {
        name: "s3",
        storage_type: "S3",
        storage_config_id: configId,
        mount_path: "/s3",
        webdav_policy: "302_redirect",
      },
    });
    expect(mount.status, mount.text).toBe(201);
    await t.request("PUT", "/api/admin/system-settings", {
      token,
      body: { webdav_upload_mode: "multipart" },
    });
    try {
      const key = await t.createApiKey(DAV_BITS);
      const remote = { url: `${base}/dav/s3`, user: key.key, pass: key.key };
      const src = path.join(work, "s3-src");
      const back = path.join(work, "s3-back");
      await makeTree(src, 20 * 1024 * 1024 + 5);
      const up = await rclone(remote, ["copy", src, "dav:tree", "--create-empty-src-dirs"]);
      expect(up.code, up.output).toBe(0);
      const down = await rclone(remote, ["copy", "dav:tree", back, "--create-empty-src-dirs"]);
      expect(down.code, down.output).toBe(0);
      const check = await rclone(remote, ["check", src, back]);
      expect(check.code, check.output).toBe(0);
      const redirected = await rawRequest("GET", "/dav/s3/tree/readme.md");
      expect(redirected.status).toBe(302);
    } finally {
      await t.request("PUT", "/api/admin/system-settings", { token, body: { webdav_upload_mode: "direct" } });
    }
  }, 300_000);
});
