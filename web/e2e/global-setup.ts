import { type ChildProcess, spawn } from "node:child_process";
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const repoRoot = fileURLToPath(new URL("../..", import.meta.url));

/** Password of the administrator the test server creates on first run. */
export const DEFAULT_E2E_ADMIN_PASSWORD = "e2e-Admin-Pass-2026";

/** Ports handed out so far from E2E_PORT_RANGE (several servers may start before any listens). */
let lastRangePort = 0;

/**
 * A free loopback port: any, or the next free one of E2E_PORT_RANGE ("48000-48199"), for
 * machines where each person running tests keeps to a range of ports.
 */
export async function freePort(): Promise<number> {
  const range = /^(\d+)-(\d+)$/.exec(process.env.E2E_PORT_RANGE ?? "");
  if (!range) return listenOn(0);
  const [low, high] = [Number(range[1]), Number(range[2])];
  for (let port = Math.max(low, lastRangePort + 1); port <= high; port++) {
    const free = await listenOn(port).catch(() => 0);
    if (free) {
      lastRangePort = free;
      return free;
    }
  }
  throw new Error(`No free port in E2E_PORT_RANGE ${process.env.E2E_PORT_RANGE}`);
}

function listenOn(wanted: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(wanted, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Waits until `url`/api/health answers (ClipShare, or a proxy in front of it). */
export async function waitForHealth(
  url: string,
  child: ChildProcess,
  timeoutMs: number,
  what = "ClipShare server",
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${what} exited early with code ${child.exitCode}`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`${what} did not become healthy at ${url} within ${timeoutMs} ms`);
}

/** Asks a child process to stop (`signal`), and kills it if it has not exited after 5 s. */
export async function stopChild(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once("exit", r));
  child.kill(signal);
  const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
  await exited;
  clearTimeout(timer);
}

/**
 * Starts the built server on a free loopback port with a throwaway data directory and the
 * test administrator; `stop` ends it and removes the directory. Specs that need a fresh
 * install of their own (nothing created by other specs) start one too.
 */
export async function startTestServer(options: { logName: string; env?: Record<string, string> }) {
  const main = join(repoRoot, "server/dist/main.js");
  if (!existsSync(main) || !existsSync(join(repoRoot, "web/dist/index.html"))) {
    throw new Error("Build first: `npm run build` (needs server/dist/main.js and web/dist/index.html)");
  }

  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), "clipshare-e2e-"));
  const logDir = join(repoRoot, "test-results");
  mkdirSync(logDir, { recursive: true });
  const log = createWriteStream(join(logDir, options.logName));

  const child = spawn(process.execPath, [main], {
    cwd: repoRoot,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      ADMIN_USERNAME: "admin",
      ADMIN_PASSWORD: process.env.E2E_ADMIN_PASSWORD ?? DEFAULT_E2E_ADMIN_PASSWORD,
      LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? "warn",
      ...options.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);

  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    await waitForHealth(baseUrl, child, 20_000);
  } catch (error) {
    child.kill("SIGKILL");
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  return {
    baseUrl,
    /** For specs that check what the server stored (database, LOCAL objects). */
    dataDir,
    stop: async () => {
      await stopChild(child, "SIGTERM");
      log.end();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Starts the built server on a free loopback port with a throwaway data directory. */
export default async function globalSetup() {
  if (process.env.E2E_BASE_URL) return undefined;

  // A port for the remote test server of the URL upload tests, which the server may fetch from.
  const remotePort = await freePort();
  // A port for the test OpenID Connect provider of the single sign-on test (on loopback: allow-listed).
  const idpPort = await freePort();
  const password = process.env.E2E_ADMIN_PASSWORD ?? DEFAULT_E2E_ADMIN_PASSWORD;
  const server = await startTestServer({
    logName: "e2e-server.log",
    env: {
      URL_FETCH_ALLOW: [process.env.URL_FETCH_ALLOW, `127.0.0.1:${remotePort}`, `127.0.0.1:${idpPort}`]
        .filter(Boolean)
        .join(","),
    },
  });
  const baseUrl = server.baseUrl;

  // Workers start after this and inherit the environment.
  process.env.E2E_BASE_URL = baseUrl;
  process.env.E2E_ADMIN_PASSWORD = password;
  process.env.E2E_REMOTE_PORT = String(remotePort);
  process.env.E2E_IDP_PORT = String(idpPort);

  return server.stop;
}
