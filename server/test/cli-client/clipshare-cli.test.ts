/**
 * The `clipshare` command-line client (packages/cli) as a real child process
 * against a real ClipShare process over HTTP: paste, upload (100 MB in parts,
 * killed half way and resumed), get, ls, rm and fs put/get, with the exit
 * codes and error texts scripts rely on.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import {
  createReadStream,
  createWriteStream,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import {
  ALL_PERMISSIONS,
  MAX_VIEWS_PROBLEM,
  REMARK_MAX,
  REMARK_PROBLEM,
  slugProblem,
} from "@clipshare/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLocalStorage, createMount, createS3Storage } from "../support/fs-helpers";
import { describeS3 } from "../support/s3-env";
import { type ServerProcess, startServer } from "../support/server-process";
import { ADMIN_PASSWORD, ADMIN_USERNAME, createTestApp, type TestApp } from "../support/test-app";

const REPO_ROOT = path.resolve(import.meta.dirname, "../../..");
const MiB = 1024 * 1024;
const SLOW = { timeout: 240_000 };

let t: TestApp;
let server: ServerProcess;
let key: string;
let home: string;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function spawnCli(args: string[], env: Record<string, string> = {}, input?: string) {
  const child = spawn(process.execPath, ["--import", "tsx", "packages/cli/src/main.ts", ...args], {
    cwd: REPO_ROOT,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: home,
      XDG_CONFIG_HOME: path.join(home, "config"),
      XDG_CACHE_HOME: path.join(home, "cache"),
      CLIPSHARE_URL: server.url,
      CLIPSHARE_API_KEY: key,
      ...env,
    },
    stdio: [input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
  });
  if (input !== undefined) child.stdin!.end(input);
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (d) => {
    stdout += String(d);
  });
  child.stderr!.on("data", (d) => {
    stderr += String(d);
  });
  const done = new Promise<Run>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
  return { child, done };
}

const cli = (args: string[], env: Record<string, string> = {}, input?: string) =>
  spawnCli(args, env, input).done;

async function fileSha(file: string) {
  const hash = createHash("sha256");
  await pipeline(createReadStream(file), hash);
  return hash.digest("hex");
}

beforeAll(async () => {
  t = await createTestApp();
  home = mkdtempSync(path.join(os.tmpdir(), "clipshare-cli-home-"));
  const storage = await createLocalStorage(t);
  await t.request("PUT", `/api/s3-configs/${storage.configId}`, {
    token: await t.adminToken(),
    body: { is_public: true },
  });
  await createMount(t, storage, "/disk");
  key = (await t.createApiKey(ALL_PERMISSIONS)).key;
  server = await startServer({
    DATA_DIR: t.dataDir,
    ADMIN_USERNAME,
    ADMIN_PASSWORD,
    WEB_DIST_DIR: path.join(t.dataDir, "no-web"),
    ...(t.config.database.dialect === "postgres" ? { DATABASE_URL: t.config.database.url } : {}),
  });
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await t?.close();
  rmSync(home, { recursive: true, force: true });
});

describe("clipshare command-line client", SLOW, () => {
  it("pastes stdin with options and prints a link that get reads back; the last view is the last", async () => {
    const made = await cli(
      ["paste", "--max-views", "2", "--expires", "1h", "--json"],
      {},
      "hello from a pipe\n",
    );
    expect(made.code, made.stderr).toBe(0);
    const paste = JSON.parse(made.stdout);
    expect(paste.url).toBe(`${server.url}/paste/${paste.slug}`);
    expect(Date.parse(paste.expires_at)).toBeGreaterThan(Date.now() + 50 * 60_000);

    const first = await cli(["get", paste.url]);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toBe("hello from a pipe\n");
    expect((await cli(["get", paste.slug])).stdout).toBe("hello from a pipe\n");
    const gone = await cli(["get", paste.url]);
    expect(gone.code).toBe(3);
    expect(gone.stderr).toMatch(/^clipshare: .*(not exist|expired|maximum views)/);
  });

  it("a password-protected paste needs --password; without a terminal it fails with exit 2", async () => {
    const file = path.join(home, "note.txt");
    writeFileSync(file, "secret note");
    const made = await cli([
      "paste",
      file,
      "--password",
      "pw1",
      "--slug",
      `n-${randomBytes(3).toString("hex")}`,
    ]);
    expect(made.code, made.stderr).toBe(0);
    const link = made.stdout.trim();
    const locked = await cli(["get", link]);
    expect(locked.code).toBe(2);
    expect(locked.stderr).toBe("clipshare: This share needs a password: pass --password\n");
    const wrong = await cli(["get", link, "--password", "nope"]);
    expect(wrong.code).toBe(2);
    const right = await cli(["get", link, "--password", "pw1"]);
    expect(right.stdout).toBe("secret note");

    const slug = link.split("/").pop();
    const ls = JSON.parse((await cli(["ls", "--json"])).stdout) as Array<{ slug: string; kind: string }>;
    expect(ls).toContainEqual(expect.objectContaining({ kind: "paste", slug }));
    const rm = await cli(["rm", link]);
    expect(rm.code, rm.stderr).toBe(0);
    expect(rm.stdout).toBe(`Deleted paste ${slug}\n`);
    expect((await cli(["get", link, "--password", "pw1"])).code).toBe(3);
  });

  it("reports usage, auth and network problems with their exit codes", async () => {
    const usage = await cli(["upload"]);
    expect(usage.code).toBe(1);
    expect(usage.stderr).toBe("clipshare: upload needs at least one file\n");
    expect((await cli(["paste", "--expires", "soon"], {}, "x")).code).toBe(1);
    // The server's view-limit bound and text, checked before anything is sent.
    const tooMany = await cli(["paste", "--max-views", "2147483648"], {}, "x");
    expect(tooMany.code).toBe(1);
    expect(tooMany.stderr).toBe(`clipshare: --max-views: ${MAX_VIEWS_PROBLEM}\n`);
    const badKey = await cli(["ls"], { CLIPSHARE_API_KEY: "not-a-key" });
    expect(badKey.code).toBe(2);
    const down = await cli(["ls", "--json"], { CLIPSHARE_URL: "http://127.0.0.1:9" });
    expect(down.code).toBe(4);
    expect(JSON.parse(down.stderr)).toMatchObject({ exit_code: 4 });
    expect(down.stderr).toContain("Cannot reach http://127.0.0.1:9");
  });

  it("refuses a reserved --slug and an over-long --remark with the server's texts, before sending", async () => {
    const reserved = await cli(["paste", "--slug", "admin"], {}, "x");
    expect(reserved.code).toBe(1);
    expect(reserved.stderr).toBe(`clipshare: --slug: ${slugProblem("admin")}\n`);
    const long = await cli(["paste", "--remark", "r".repeat(REMARK_MAX + 1)], {}, "x");
    expect(long.code).toBe(1);
    expect(long.stderr).toBe(`clipshare: --remark: ${REMARK_PROBLEM}\n`);
  });

  it("login checks the key and saves the config owner-only; later runs need no flags", async () => {
    const login = await cli(["login", "--url", server.url, "--api-key", key]);
    expect(login.code, login.stderr).toBe(0);
    const file = path.join(home, "config", "clipshare", "config.json");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({ url: server.url, api_key: key });
    const ls = await cli(["ls"], { CLIPSHARE_URL: "", CLIPSHARE_API_KEY: "" });
    expect(ls.code, ls.stderr).toBe(0);
  });

  it("share --collection uploads files and prints one link that lists them all", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "clipshare-cli-collection-"));
    writeFileSync(path.join(dir, "a.txt"), "first\n");
    writeFileSync(path.join(dir, "b.txt"), "second\n");
    const made = await cli([
      "share",
      "--collection",
      path.join(dir, "a.txt"),
      path.join(dir, "b.txt"),
      "--title",
      "Two notes",
      "--max-views",
      "3",
      "--json",
    ]);
    expect(made.code, made.stderr).toBe(0);
    const collection = JSON.parse(made.stdout);
    expect(collection).toMatchObject({ title: "Two notes", max_views: 3, item_count: 2 });
    expect(collection.url).toBe(`${server.url}/c/${collection.slug}`);
    const page = await fetch(`${server.url}/api/public/collections/${collection.slug}`);
    const data = ((await page.json()) as { data: { items: Array<{ name: string; download_url: string }> } })
      .data;
    expect(data.items.map((i) => i.name)).toEqual(["a.txt", "b.txt"]);
    expect(await (await fetch(data.items[1]!.download_url)).text()).toBe("second\n");
    const plain = await cli(["share", path.join(dir, "a.txt")]);
    expect(plain.code).toBe(1);
    expect(plain.stderr).toContain("--collection");
    const paths = await cli(["share", "--collection", "--paths", "/disk/no-such-folder"]);
    expect(paths.code).toBe(3);
  });

  it("request create, ls and close: a file request's link, its state, then closed for visitors", async () => {
    const made = await cli([
      "request",
      "create",
      "Scans please",
      "--max-files",
      "3",
      "--types",
      ".pdf",
      "--expires",
      "2d",
      "--json",
    ]);
    expect(made.code, made.stderr).toBe(0);
    const request = JSON.parse(made.stdout);
    expect(request).toMatchObject({
      title: "Scans please",
      max_files: 3,
      allowed_types: [".pdf"],
      state: "open",
    });
    expect(request.url).toBe(`${server.url}/r/${request.slug}`);
    const ls = await cli(["request", "ls"]);
    expect(ls.stdout).toContain(`${request.slug}\topen\t0/3 files`);
    const closed = await cli(["request", "close", request.url]);
    expect(closed.code, closed.stderr).toBe(0);
    expect(closed.stdout).toBe(`Closed ${request.url}\n`);
    const page = await fetch(`${server.url}/api/public/requests/${request.slug}`);
    expect(((await page.json()) as { data: { state: string } }).data.state).toBe("closed");
    expect((await cli(["request", "close", "no-such-request"])).code).toBe(3);
    expect((await cli(["request", "frobnicate"])).code).toBe(1);
  });

  it("uploads a small file, lists it, gets it to disk, removes it", async () => {
    const file = path.join(home, "small.bin");
    const bytes = randomBytes(300_000);
    writeFileSync(file, bytes);
    const up = await cli(["upload", file, "--json"]);
    expect(up.code, up.stderr).toBe(0);
    const share = JSON.parse(up.stdout);
    expect(share).toMatchObject({ filename: "small.bin", size: bytes.length, method: "direct" });

    const ls = JSON.parse((await cli(["ls", "--json"])).stdout) as Array<{ slug: string; kind: string }>;
    expect(ls).toContainEqual(expect.objectContaining({ kind: "file", slug: share.slug }));

    const out = mkdtempSync(path.join(home, "dl-"));
    const got = await cli(["get", share.url, "-o", `${out}/`]);
    expect(got.code, got.stderr).toBe(0);
    expect(readFileSync(path.join(out, "small.bin")).equals(bytes)).toBe(true);
    // An existing file is kept unless --force.
    const again = await cli(["get", share.url, "-o", out]);
    expect(again.code).toBe(5);
    expect(again.stderr).toContain("exists; pass --force");

    const rm = await cli(["rm", share.url]);
    expect(rm.code, rm.stderr).toBe(0);
    expect((await cli(["get", share.url, "-o", "-"])).code).toBe(3);
    const missing = await cli(["rm", share.slug]);
    expect(missing.code).toBe(3);
    expect(missing.stderr).toBe(`clipshare: No share of yours is named ${share.slug}\n`);
  });

  it("uploads 100 MB in parts; killed half way, the same command sends only the missing parts", async () => {
    const file = path.join(home, "big.bin");
    await pipeline(
      (async function* () {
        for (let i = 0; i < 100; i++) yield randomBytes(MiB);
      })(),
      createWriteStream(file),
    );
    const stateDir = path.join(home, "cache", "clipshare", "uploads");
    const partsSaved = () => {
      if (!existsSync(stateDir)) return 0;
      const files = readdirSync(stateDir).filter((f) => f.endsWith(".json"));
      if (files.length !== 1) return 0;
      try {
        return JSON.parse(readFileSync(path.join(stateDir, files[0]!), "utf8")).parts.length as number;
      } catch {
        return 0;
      }
    };
    const first = spawnCli(["upload", file, "--parallel", "1", "--json"]);
    await waitFor(() => partsSaved() >= 4, first.child);
    first.child.kill("SIGKILL");
    await first.done;
    const before = partsSaved();
    expect(before).toBeGreaterThanOrEqual(4);
    expect(before).toBeLessThan(20);

    const second = await cli(["upload", file, "--json"]);
    expect(second.code, second.stderr).toBe(0);
    const share = JSON.parse(second.stdout);
    expect(share).toMatchObject({ method: "multipart", size: 100 * MiB });
    expect(share.resumed_parts).toBeGreaterThanOrEqual(before);
    expect(share.resumed_parts + share.sent_parts).toBe(20);
    // The saved progress is gone once the share is published.
    expect(existsSync(stateDir) ? readdirSync(stateDir) : []).toEqual([]);

    const out = path.join(home, "big-copy.bin");
    const got = await cli(["get", share.url, "-o", out]);
    expect(got.code, got.stderr).toBe(0);
    expect(await fileSha(out)).toBe(await fileSha(file));
  });

  it("fs put, ls and get on a mount", async () => {
    const file = path.join(home, "report.txt");
    writeFileSync(file, "quarterly numbers\n");
    const put = await cli(["fs", "put", file, "/disk/docs/"]);
    expect(put.code, put.stderr).toBe(0);
    expect(put.stdout).toBe("Uploaded /disk/docs/report.txt\n");
    const ls = JSON.parse((await cli(["fs", "ls", "/disk/docs", "--json"])).stdout);
    expect(ls).toContainEqual(expect.objectContaining({ name: "report.txt", type: "file", size: 18 }));
    const out = path.join(home, "report-copy.txt");
    const got = await cli(["fs", "get", "/disk/docs/report.txt", out]);
    expect(got.code, got.stderr).toBe(0);
    expect(readFileSync(out, "utf8")).toBe("quarterly numbers\n");
    const missing = await cli(["fs", "get", "/disk/docs/none.txt", "-o", "-"]);
    expect(missing.code).toBe(3);
  });
});

describeS3("clipshare upload to S3 storage", (s3) => {
  it("sends the parts straight to S3's presigned URLs and the file reads back whole", SLOW, async () => {
    const storage = await createS3Storage(t, s3, "cli");
    await t.request("PUT", `/api/s3-configs/${storage.configId}`, {
      token: await t.adminToken(),
      body: { is_public: true },
    });
    try {
      const file = path.join(home, "s3-big.bin");
      writeFileSync(file, randomBytes(16 * MiB + 123));
      const up = await cli(["upload", file, "--storage", storage.configId, "--json"]);
      expect(up.code, up.stderr).toBe(0);
      const share = JSON.parse(up.stdout);
      expect(share).toMatchObject({ method: "multipart", sent_parts: 4, resumed_parts: 0 });
      const out = path.join(home, "s3-copy.bin");
      const got = await cli(["get", share.url, "-o", out]);
      expect(got.code, got.stderr).toBe(0);
      expect(await fileSha(out)).toBe(await fileSha(file));
    } finally {
      await storage.cleanup();
    }
  });
});

async function waitFor(probe: () => boolean, child: ChildProcess, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  while (!probe()) {
    if (child.exitCode !== null) throw new Error("the upload ended before it could be interrupted");
    if (Date.now() > deadline) throw new Error("timed out waiting for upload progress");
    await new Promise((r) => setTimeout(r, 10));
  }
}
