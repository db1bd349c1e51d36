/**
 * A remote storage server that dies mid-transfer: the upload in flight ends
 * in a 502/503 envelope, no half file becomes visible, requests while it is
 * down are 503 storage_unreachable, and once it is back the next request
 * reconnects by itself. Each backend is a server process this test owns
 * (`rclone serve` for WebDAV and SFTP, pure-ftpd for FTP), so it can kill and
 * restart it without disturbing other suites.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generatedStream, sha256Of } from "../../src/storage/contract-helpers";
import { type Auth, createMount, list } from "../support/fs-helpers";
import { createTestApp, type TestApp } from "../support/test-app";

const MiB = 1024 * 1024;
/** Whether `command args` cannot run here (the server is not installed). */
function missing(command: string, args: string[]): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const probe = spawn(command, args, { stdio: "ignore" });
    probe.on("exit", (code) => resolve(code !== 0));
    probe.on("error", () => resolve(true));
  });
}
const rcloneMissing = await missing("rclone", ["version"]);
const pureFtpdMissing = await missing("pure-pw", ["--help"]).then(
  async (noPw) => noPw || (await missing("sh", ["-c", "command -v pure-ftpd"])),
);

/** Runs a helper command to its end, feeding `input` on stdin; resolves with its stdout. */
function run(command: string, args: string[], input?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      stdio: [input === undefined ? "ignore" : "pipe", "pipe", "inherit"],
    });
    let out = "";
    child.stdout?.on("data", (d) => {
      out += d;
    });
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve(out) : reject(new Error(`${command} exited ${code}`))));
    child.stdin?.end(input);
  });
}

async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

async function waitForPort(port: number): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const open = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, "127.0.0.1");
      s.once("connect", () => {
        s.destroy();
        resolve(true);
      });
      s.once("error", () => resolve(false));
    });
    if (open) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`nothing listens on ${port}`);
}

/** A storage server this test can stop dead and start again on the same port. */
interface OutageServer {
  readonly port: number;
  /** The storage-config body that reaches it. */
  readonly config: Record<string, string>;
  start(): Promise<void>;
  kill(): void;
}

const USER = "outage";
const PASSWORD = "outage-secret";

/** One `rclone serve` over a directory, restartable on the same port. */
class RcloneServer implements OutageServer {
  private child: ChildProcess | null = null;
  constructor(
    readonly protocol: "webdav" | "sftp",
    readonly dir: string,
    readonly port: number,
  ) {}

  get config() {
    const endpoint =
      this.protocol === "webdav" ? `http://127.0.0.1:${this.port}/` : `sftp://127.0.0.1:${this.port}`;
    return { storage_type: this.protocol === "webdav" ? "WEBDAV" : "SFTP", endpoint_url: endpoint };
  }

  async start(): Promise<void> {
    const args = ["serve", this.protocol, this.dir, "--addr", `127.0.0.1:${this.port}`];
    args.push("--user", USER, "--pass", PASSWORD);
    if (this.protocol === "sftp") args.push("--key", path.join(this.dir, "..", "host_key"));
    this.child = spawn("rclone", args, {
      stdio: "ignore",
      env: { ...process.env, RCLONE_CONFIG: "/dev/null" },
    });
    await waitForPort(this.port);
  }

  kill(): void {
    this.child?.kill("SIGKILL");
    this.child = null;
  }
}

/**
 * pure-ftpd over a directory (one virtual user), as scripts/test-services/ftp.sh
 * runs it. It forks a process per connection, so it runs in a process group of
 * its own and the whole group is killed: an outage drops the transfers too.
 */
class PureFtpdServer implements OutageServer {
  private child: ChildProcess | null = null;
  constructor(
    readonly dir: string,
    readonly port: number,
    readonly passivePorts: [number, number],
  ) {}

  get config() {
    return { storage_type: "FTP", endpoint_url: `ftp://127.0.0.1:${this.port}` };
  }

  /** The user database: a cheap SHA-512 crypt hash, so logins are fast. */
  async prepare(): Promise<void> {
    const hash = (await run("openssl", ["passwd", "-6", "-stdin"], PASSWORD)).trim();
    const users = path.join(this.dir, "..", "users");
    writeFileSync(users, `${USER}:${hash}:65534:65534::${this.dir}/./::::::::::::\n`);
    // The virtual user is "nobody": it must reach and own the served folder.
    chmodSync(path.dirname(this.dir), 0o755);
    chownSync(this.dir, 65534, 65534);
    await run("pure-pw", ["mkdb", `${users}.pdb`, "-f", users]);
  }

  async start(): Promise<void> {
    const [low, high] = this.passivePorts;
    const args = ["-S", `127.0.0.1,${this.port}`, "-l", `puredb:${path.join(this.dir, "..", "users.pdb")}`];
    args.push("-E", "-A", "-H", "-u", "1", "-p", `${low}:${high}`);
    this.child = spawn("pure-ftpd", args, { stdio: "ignore", detached: true });
    await waitForPort(this.port);
  }

  kill(): void {
    const pid = this.child?.pid;
    if (pid) process.kill(-pid, "SIGKILL");
    this.child = null;
  }
}

function configBody(server: OutageServer) {
  return {
    ...server.config,
    name: `outage ${server.config.storage_type}`,
    access_key_id: USER,
    secret_access_key: PASSWORD,
    default_folder: "store",
  };
}

/** A request body that sends `total` bytes, calling `midway` once after `after` bytes. */
function slowBody(total: number, after: number, midway: () => void): ReadableStream<Uint8Array> {
  const source = generatedStream(total, 9);
  let sent = 0;
  let fired = false;
  return Readable.toWeb(
    source.map(async (chunk: Buffer) => {
      sent += chunk.length;
      if (!fired && sent >= after) {
        fired = true;
        midway();
        await new Promise((r) => setTimeout(r, 200));
      }
      return chunk;
    }),
  ) as ReadableStream<Uint8Array>;
}

for (const protocol of ["sftp", "webdav", "ftp"] as const) {
  // Under CLIPSHARE_REQUIRE_SERVICES=1 a missing server fails the suite instead of skipping it.
  const serverMissing =
    (protocol === "ftp" ? pureFtpdMissing : rcloneMissing) && process.env.CLIPSHARE_REQUIRE_SERVICES !== "1";
  describe.skipIf(serverMissing)(`a ${protocol} storage server that dies mid-transfer`, () => {
    let t: TestApp;
    let admin: Auth;
    let base: string;
    let server: OutageServer;

    beforeAll(async () => {
      base = mkdtempSync(path.join(os.tmpdir(), `clipshare-outage-${protocol}-`));
      const dir = path.join(base, "served");
      if (protocol === "sftp") {
        await new Promise<void>((resolve, reject) =>
          spawn("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", path.join(base, "host_key")])
            .on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`ssh-keygen ${code}`))))
            .on("error", reject),
        );
      }
      mkdirSync(dir);
      if (protocol === "ftp") {
        const passive = await freePort();
        const ftp = new PureFtpdServer(dir, await freePort(), [passive, passive + 9]);
        await ftp.prepare();
        server = ftp;
      } else {
        server = new RcloneServer(protocol, dir, await freePort());
      }
      await server.start();
      t = await createTestApp({ STORAGE_ENDPOINT_ALLOW: `127.0.0.1:${server.port}` });
      admin = { token: await t.adminToken() };
      const res = await t.request("POST", "/api/s3-configs", { ...admin, body: configBody(server) });
      expect(res.status, res.text).toBe(201);
      await createMount(
        t,
        {
          configId: res.body.data.id,
          storageType: res.body.data.storage_type,
          cleanup: async () => undefined,
        },
        "/r",
      );
      const ok = await t.app.request("/api/fs/upload?path=/r/kept.bin", {
        method: "PUT",
        headers: { authorization: `Bearer ${admin.token}`, "content-type": "application/octet-stream" },
        body: Readable.toWeb(generatedStream(MiB, 3)) as ReadableStream<Uint8Array>,
        duplex: "half",
      } as RequestInit);
      expect(ok.status, await ok.clone().text()).toBeLessThan(300);
    }, 30_000);

    afterAll(async () => {
      server?.kill();
      await t?.close();
      rmSync(base, { recursive: true, force: true });
    });

    it("fails the upload in flight with a storage envelope and shows no half file", async () => {
      const res = await t.app.request("/api/fs/upload?path=/r/interrupted.bin", {
        method: "PUT",
        headers: { authorization: `Bearer ${admin.token}`, "content-type": "application/octet-stream" },
        body: slowBody(48 * MiB, 4 * MiB, () => server.kill()),
        duplex: "half",
      } as RequestInit);
      const body = (await res.json()) as { success: boolean; error: string };
      expect([502, 503], JSON.stringify(body)).toContain(res.status);
      expect(body).toMatchObject({ success: false });
      expect(["storage_error", "storage_unreachable"]).toContain(body.error);
    });

    it("answers 503 storage_unreachable while the server is down", async () => {
      const res = await list(t, "/r/", admin, "&refresh=true");
      expect(res.status, res.text).toBe(503);
      expect(res.body).toMatchObject({ success: false, error: "storage_unreachable" });
    });

    it("reconnects on the next request once the server is back; only complete files are there", async () => {
      await server.start();
      const listing = await list(t, "/r/", admin, "&refresh=true");
      expect(listing.status, listing.text).toBe(200);
      expect(listing.body.data.items.map((i: { name: string }) => i.name)).toEqual(["kept.bin"]);
      const res = await t.app.request("/api/fs/download?path=/r/kept.bin", {
        headers: { authorization: `Bearer ${admin.token}` },
      });
      expect(res.status).toBe(200);
      const got = await sha256Of(Readable.fromWeb(res.body as never));
      expect(got).toEqual(await sha256Of(generatedStream(MiB, 3)));
    });
  });
}
