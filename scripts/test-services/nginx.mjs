// Starts Debian's nginx as one foreground process (no master, no daemon) on a free
// loopback port with a throwaway prefix, for benchmarks and tests that compare
// with or sit behind nginx. Returns null when nginx is not installed.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { freePort } from "../bench/server-process.mjs";

export const hasNginx = () =>
  spawnSync("sh", ["-c", "command -v nginx || test -x /usr/sbin/nginx"]).status === 0;

async function waitForPort(port, child, deadlineMs) {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited with ${child.exitCode}`);
    const open = await new Promise((resolve) => {
      const s = net.connect(port, "127.0.0.1", () => {
        s.destroy();
        resolve(true);
      });
      s.on("error", () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error("nginx did not start listening");
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * `locations(port)`: the body of the one `server {}` block after `listen`
 * (locations, proxy_pass, ...); `http`: more directives for the `http {}` block
 * (e.g. client_max_body_size); `accessLog`: keep a log of "METHOD URI STATUS"
 * lines, read with accessLog(). Resolves { port, base, pid, accessLog(), stop() }.
 */
export async function startNginx({ locations, http = "", accessLog = false }) {
  const bin = spawnSync("sh", ["-c", "command -v nginx || echo /usr/sbin/nginx"], {
    encoding: "utf8",
  }).stdout.trim();
  const prefix = mkdtempSync(path.join(os.tmpdir(), "clipshare-nginx-"));
  const port = await freePort();
  // Running as root, nginx would otherwise switch to "nobody", who cannot read owner-only data dirs.
  const user = process.getuid?.() === 0 ? `user ${os.userInfo().username};` : "";
  const conf = `${user}
worker_processes 1;
master_process off;
daemon off;
pid ${prefix}/nginx.pid;
error_log ${prefix}/error.log warn;
events { worker_connections 1024; }
http {
  ${accessLog ? `log_format requests '$request_method $request_uri $status';\n  access_log ${prefix}/access.log requests;` : "access_log off;"}
  ${http}
  sendfile on;
  tcp_nopush on;
  default_type application/octet-stream;
  client_body_temp_path ${prefix}/body;
  proxy_temp_path ${prefix}/proxy;
  fastcgi_temp_path ${prefix}/fastcgi;
  uwsgi_temp_path ${prefix}/uwsgi;
  scgi_temp_path ${prefix}/scgi;
  server {
    listen 127.0.0.1:${port};
    ${locations(port)}
  }
}
`;
  const confFile = path.join(prefix, "nginx.conf");
  writeFileSync(confFile, conf);
  const child = spawn(bin, ["-p", prefix, "-c", confFile], { stdio: ["ignore", "ignore", "inherit"] });
  try {
    await waitForPort(port, child, 10_000);
  } catch (e) {
    child.kill("SIGKILL");
    rmSync(prefix, { recursive: true, force: true });
    throw e;
  }
  return {
    port,
    base: `http://127.0.0.1:${port}`,
    pid: child.pid,
    accessLog() {
      const file = path.join(prefix, "access.log");
      return existsSync(file)
        ? readFileSync(file, "utf8")
            .split("\n")
            .filter((l) => l.trim())
        : [];
    },
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once("exit", r));
        child.kill("SIGQUIT");
        await exited;
      }
      rmSync(prefix, { recursive: true, force: true });
    },
  };
}
