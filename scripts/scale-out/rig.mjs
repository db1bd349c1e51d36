// The scale-out rig: N ClipShare instances (the built server, server/dist/main.js) on one
// PostgreSQL database with one SECRET_KEY, each with its own DATA_DIR, behind Debian's nginx
// (scripts/scale-out/nginx-conf.mjs). Everything on free loopback ports, stopped by PID.
// Needs the test services (scripts/test-services/start.sh, then `source .tmp/services.env`).
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "../bench/server-process.mjs";
import { createPgDatabase } from "../test-services/pg-database.mjs";
import { standaloneConf } from "./nginx-conf.mjs";

const ROOT = path.resolve(import.meta.dirname, "../..");
export const RIG_ADMIN = { username: "admin", password: "scale-out-password-1" };
const NGINX = "/usr/sbin/nginx";

/** Why the rig cannot start here, or null when it can. */
export function rigMissing() {
  if (!process.env.CLIPSHARE_TEST_PG_URL || !process.env.CLIPSHARE_TEST_S3_ENDPOINT)
    return "CLIPSHARE_TEST_PG_URL / CLIPSHARE_TEST_S3_* are not set; run scripts/test-services/start.sh and source .tmp/services.env";
  if (!existsSync(NGINX)) return `${NGINX} is missing; run scripts/install-system-deps.sh`;
  if (!existsSync(path.join(ROOT, "server/dist/main.js")))
    return "server/dist/main.js is missing; run npm run build";
  return null;
}

async function waitHealthy(url, isDead, describe) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const dead = isDead();
    if (dead) throw new Error(`${describe} exited at start-up: ${dead}`);
    const ok = await fetch(`${url}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`${describe} did not become healthy at ${url}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Keeps the last 20 kB a child wrote to stderr, for error messages. */
function tail(child) {
  let text = "";
  child.stderr?.on("data", (d) => {
    text = (text + String(d)).slice(-20_000);
  });
  return () => text;
}

function instance(name, env, dir) {
  const dataDir = path.join(dir, `data-${name}`);
  const self = {
    name,
    port: 0,
    url: "",
    /** @type {import("node:child_process").ChildProcess | null} */
    child: null,
    exited: Promise.resolve(),
    stderr: () => "",
    get pid() {
      return self.child?.pid ?? 0;
    },
    async start() {
      if (!self.port) {
        self.port = await freePort();
        self.url = `http://127.0.0.1:${self.port}`;
      }
      const child = spawn(process.execPath, [path.join(ROOT, "server/dist/main.js")], {
        cwd: ROOT,
        env: {
          PATH: process.env.PATH ?? "",
          HOME: process.env.HOME ?? "/tmp",
          HOST: "127.0.0.1",
          PORT: String(self.port),
          DATA_DIR: dataDir,
          LOG_LEVEL: "warn",
          INSTANCE_NAME: name,
          TRUST_PROXY: "true",
          ADMIN_USERNAME: RIG_ADMIN.username,
          ADMIN_PASSWORD: RIG_ADMIN.password,
          WEB_DIST_DIR: path.join(ROOT, "web/dist"),
          ...(process.env.STORAGE_ENDPOINT_ALLOW
            ? { STORAGE_ENDPOINT_ALLOW: process.env.STORAGE_ENDPOINT_ALLOW }
            : {}),
          ...env,
        },
        stdio: ["ignore", "ignore", "pipe"],
      });
      self.child = child;
      self.stderr = tail(child);
      self.exited = new Promise((resolve) => child.once("exit", () => resolve(undefined)));
      await waitHealthy(
        self.url,
        () => (child.exitCode !== null ? self.stderr() || `exit ${child.exitCode}` : null),
        `instance ${name}`,
      );
    },
    /** SIGTERM (graceful: in-flight requests finish, running tasks go back to the queue). */
    async stop() {
      if (self.child && self.child.exitCode === null && self.child.signalCode === null)
        self.child.kill("SIGTERM");
      await self.exited;
    },
    /** SIGKILL: a crash, no shutdown at all. */
    async kill9() {
      if (self.child && self.child.exitCode === null && self.child.signalCode === null)
        self.child.kill("SIGKILL");
      await self.exited;
    },
  };
  return self;
}

/**
 * Starts the rig. `env` goes to every instance (e.g. TASK_STALE_AFTER); `count` instances are
 * named a, b, c ...; nginx balances over all of them.
 * @param {{ count?: number, env?: Record<string, string> }} [options]
 */
export async function startRig({ count = 2, env = {} } = {}) {
  const missing = rigMissing();
  if (missing) throw new Error(`scale-out rig: ${missing}`);
  const dir = mkdtempSync(path.join(os.tmpdir(), "clipshare-scale-"));
  const db = await createPgDatabase("clipshare_scale");
  const shared = {
    DATABASE_URL: db.url,
    SECRET_KEY: randomBytes(32).toString("base64url"),
    ...env,
  };
  const instances = "abcdefgh"
    .slice(0, count)
    .split("")
    .map((name) => instance(name, shared, dir));
  /** @type {import("node:child_process").ChildProcess | null} */
  let nginx = null;
  const stopAll = async () => {
    if (nginx && nginx.exitCode === null) {
      const exited = new Promise((r) => nginx?.once("exit", r));
      nginx.kill("SIGTERM");
      await exited;
    }
    await Promise.all(instances.map((i) => i.stop()));
    await db.drop().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    // The first instance migrates the empty database and creates the administrator alone.
    await instances[0]?.start();
    await Promise.all(instances.slice(1).map((i) => i.start()));
    const port = await freePort();
    const nginxDir = path.join(dir, "nginx");
    mkdirSync(nginxDir, { mode: 0o777 });
    const conf = path.join(nginxDir, "nginx.conf");
    writeFileSync(
      conf,
      standaloneConf({
        listen: `127.0.0.1:${port}`,
        upstreams: instances.map((i) => `127.0.0.1:${i.port}`),
        dir: nginxDir,
      }),
    );
    const child = spawn(NGINX, ["-p", nginxDir, "-c", conf, "-e", path.join(nginxDir, "error.log")], {
      stdio: ["ignore", "ignore", "pipe"],
    });
    nginx = child;
    const nginxErr = tail(child);
    const url = `http://127.0.0.1:${port}`;
    await waitHealthy(
      url,
      () => (child.exitCode !== null ? nginxErr() || `exit ${child.exitCode}` : null),
      "nginx",
    );
    return {
      /** The balancer: what clients use. */
      url,
      instances,
      databaseUrl: db.url,
      secretKey: shared.SECRET_KEY,
      get nginxPid() {
        return child.pid ?? 0;
      },
      /**
       * Resolves once nginx has sent a request to instance `name` and got its answer. After a
       * refused connection nginx skips an instance for its fail timeout and then until one request
       * to it succeeds: stopping the next instance before that leaves no live upstream (502).
       */
      async waitServedBy(name, timeoutMs = 30_000) {
        const deadline = Date.now() + timeoutMs;
        for (;;) {
          const res = await fetch(`${url}/api/health`).catch(() => null);
          if (res?.headers.get("x-clipshare-instance") === name) return;
          if (Date.now() > deadline) throw new Error(`nginx did not route to instance ${name} again`);
          await new Promise((r) => setTimeout(r, 100));
        }
      },
      /** The last lines of nginx's error log (why it answered 502, which upstream failed). */
      nginxErrors() {
        const file = path.join(nginxDir, "error.log");
        return existsSync(file) ? readFileSync(file, "utf8").split("\n").slice(-40).join("\n") : "";
      },
      stop: stopAll,
    };
  } catch (e) {
    await stopAll();
    throw e;
  }
}
