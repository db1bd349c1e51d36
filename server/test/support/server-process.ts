/**
 * ClipShare as a real child process (server/src/main.ts under tsx), for tests
 * that need what only a process has: its umask, its start-up, and being killed
 * with SIGKILL in the middle of a request.
 */
import { type ChildProcess, spawn } from "node:child_process";
import http from "node:http";
import net from "node:net";
import path from "node:path";

const REPO_ROOT = path.resolve(import.meta.dirname, "../../..");

export interface ServerProcess {
  url: string;
  port: number;
  child: ChildProcess;
  /** What the process wrote to stderr so far (a crash's stack ends up here). */
  stderr(): string;
  /** SIGKILL: no shutdown hooks, no cleanup, like a crash or the OOM killer. */
  kill9(): Promise<void>;
  /** SIGTERM and wait for the exit. */
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** `nodeArgs` go before the entry point, e.g. `["--import", hookFile]`. */
export async function startServer(
  env: Record<string, string>,
  nodeArgs: string[] = [],
): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [...nodeArgs, "--import", "tsx", "server/src/main.ts"], {
    cwd: REPO_ROOT,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "/tmp",
      HOST: "127.0.0.1",
      PORT: String(port),
      LOG_LEVEL: "warn",
      // The test S3 server listens on loopback: a deployment lists such an endpoint the same way.
      ...(process.env.STORAGE_ENDPOINT_ALLOW
        ? { STORAGE_ENDPOINT_ALLOW: process.env.STORAGE_ENDPOINT_ALLOW }
        : {}),
      ...env,
    },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (d) => {
    stderr += String(d);
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited at start-up: ${stderr}`);
    const up = await fetch(`${url}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`server did not start: ${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    port,
    child,
    stderr: () => stderr,
    async kill9() {
      child.kill("SIGKILL");
      await exited;
    },
    async stop() {
      if (child.exitCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}

/**
 * A PUT whose body is sent in chunks and never finished (no Content-Length),
 * so the server is mid-upload until the test decides otherwise.
 */
export function openUpload(url: string, headers: Record<string, string>) {
  const req = http.request(url, { method: "PUT", headers });
  req.on("error", () => undefined); // the server is about to die under it
  const response = new Promise<http.IncomingMessage>((resolve) => req.on("response", resolve));
  return {
    response,
    send(bytes: Buffer): Promise<void> {
      return new Promise((resolve) => {
        if (req.write(bytes)) resolve();
        else req.once("drain", () => resolve());
      });
    },
    end() {
      req.end();
    },
  };
}
