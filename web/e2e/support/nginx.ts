import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort, stopChild, waitForHealth } from "../global-setup";

/**
 * Debian's nginx as the reverse proxy most deployments put in front of
 * ClipShare, with the common 100 MB request body limit: uploads must get
 * through it in parts. Runs from its own prefix (config, temp dirs, logs) on a
 * free loopback port; never touches /etc/nginx or the system service.
 */
export interface NginxProxy {
  url: string;
  /** Request lines of the access log: "METHOD URI STATUS". */
  accessLog(): string[];
  stop(): Promise<void>;
}

const NGINX = "/usr/sbin/nginx";

export const nginxAvailable = () => existsSync(NGINX);

export async function startNginx(backend: string, bodyLimit = "100m"): Promise<NginxProxy> {
  const prefix = mkdtempSync(join(tmpdir(), "clipshare-nginx-"));
  for (const dir of ["body", "proxy", "fastcgi", "uwsgi", "scgi", "logs"]) mkdirSync(join(prefix, dir));
  const port = await freePort();
  const conf = join(prefix, "nginx.conf");
  const log = join(prefix, "logs/access.log");
  const asRoot = process.getuid?.() === 0;
  writeFileSync(
    conf,
    `${asRoot ? "user root;\n" : ""}daemon off;
worker_processes 1;
pid ${prefix}/nginx.pid;
error_log ${prefix}/logs/error.log warn;
events { worker_connections 256; }
http {
  log_format requests '$request_method $request_uri $status';
  access_log ${log} requests;
  client_body_temp_path ${prefix}/body;
  proxy_temp_path ${prefix}/proxy;
  fastcgi_temp_path ${prefix}/fastcgi;
  uwsgi_temp_path ${prefix}/uwsgi;
  scgi_temp_path ${prefix}/scgi;
  client_max_body_size ${bodyLimit};
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass ${backend.replace(/\/+$/, "")};
      proxy_http_version 1.1;
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $remote_addr;
      proxy_read_timeout 300s;
      proxy_send_timeout 300s;
    }
  }
}
`,
  );
  const child: ChildProcess = spawn(NGINX, ["-p", prefix, "-c", conf], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (d) => {
    stderr += String(d);
  });
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitForHealth(url, child, 10_000, "nginx");
  } catch (error) {
    child.kill("SIGKILL");
    throw new Error(`${(error as Error).message}: ${stderr}`);
  }
  return {
    url,
    accessLog: () =>
      existsSync(log)
        ? readFileSync(log, "utf8")
            .split("\n")
            .filter((l) => l.trim())
        : [],
    stop: async () => {
      // SIGQUIT: nginx's graceful shutdown.
      await stopChild(child, "SIGQUIT");
      rmSync(prefix, { recursive: true, force: true });
    },
  };
}
