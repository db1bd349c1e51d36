// Starts the built ClipShare server on a free port with a throwaway data dir, for benchmarks.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { s3ConfigBody, testS3FromEnv } from "../test-services/s3-config-body.mjs";

export const ADMIN = { username: "admin", password: "bench-password-123" };

/**
 * The body of `POST /api/s3-configs` for the test S3 server named by the
 * CLIPSHARE_TEST_S3_* variables (source .tmp/services.env), objects under a
 * fresh folder starting with `folderPrefix`; null when no test S3 is configured.
 */
export function testS3ConfigBody(folderPrefix) {
  const s3 = testS3FromEnv();
  if (!s3) return null;
  return s3ConfigBody(s3, `${folderPrefix}-s3`, { default_folder: `${folderPrefix}-${Date.now()}` });
}

export async function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
    srv.on("error", reject);
  });
}

/** Mounts the default local storage at /bench-local (WebDAV streams through, no listing cache). */
export async function mountLocal(server, token) {
  const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
  const configs = await (await fetch(`${server.base}/api/s3-configs`, { headers })).json();
  const local = configs.data.find((c) => c.storage_type === "LOCAL");
  const res = await fetch(`${server.base}/api/admin/mounts`, {
    method: "POST",
    headers,
    body: JSON.stringify({
      name: "bench-local",
      storage_type: "LOCAL",
      storage_config_id: local.id,
      mount_path: "/bench-local",
      webdav_policy: "native_proxy",
      cache_ttl: 0,
    }),
  });
  if (!res.ok) throw new Error(`mount: ${res.status} ${await res.text()}`);
}

export async function startServer(env = {}) {
  const root = path.resolve(import.meta.dirname, "../..");
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "clipshare-bench-"));
  // BENCH_PORT pins the server's port (a shared machine with port ranges per person).
  const port = Number(process.env.BENCH_PORT) || (await freePort());
  // CLIPSHARE_SERVER_JS measures another build (another branch's dist/main.js) the same way.
  const main = process.env.CLIPSHARE_SERVER_JS ?? path.join(root, "server/dist/main.js");
  const child = spawn(process.execPath, [main], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: "warn",
      // As the container image and the systemd unit run it (docs/deployment.md, "Memory").
      MALLOC_MMAP_THRESHOLD_: "131072",
      ...env,
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 15_000;
  for (;;) {
    try {
      const res = await fetch(`${base}/api/health`);
      if (res.ok) break;
    } catch {}
    if (Date.now() > deadline) throw new Error("server did not become healthy");
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    base,
    pid: child.pid,
    dataDir,
    async login() {
      const res = await fetch(`${base}/api/admin/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(ADMIN),
      });
      return (await res.json()).data.token;
    },
    /** Raises the upload size limit (the default would refuse the benchmarks' large files). */
    async allowUploadsOf(gigabytes, token) {
      const res = await fetch(`${base}/api/admin/system-settings`, {
        method: "PUT",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ max_upload_size: gigabytes, max_upload_size_unit: "GB" }),
      });
      if (!res.ok) throw new Error(`raising the upload limit failed: ${res.status}`);
    },
    /** Resident set size of the server process in MB (Linux). */
    async rssMb() {
      const { readFileSync } = await import("node:fs");
      const status = readFileSync(`/proc/${child.pid}/status`, "utf8");
      const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
      return Math.round(kb / 102.4) / 10;
    },
    async stop() {
      child.kill("SIGTERM");
      await new Promise((r) => child.once("exit", r));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
