import { hasNginx, startNginx as startTestNginx } from "../../../scripts/test-services/nginx.mjs";

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

export const nginxAvailable = (): boolean => hasNginx();

export async function startNginx(backend: string, bodyLimit = "100m"): Promise<NginxProxy> {
  const nginx = await startTestNginx({
    accessLog: true,
    http: `client_max_body_size ${bodyLimit};`,
    locations: () => `location / {
      proxy_pass ${backend.replace(/\/+$/, "")};
      proxy_http_version 1.1;
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $remote_addr;
      proxy_read_timeout 300s;
      proxy_send_timeout 300s;
    }`,
  });
  return { url: nginx.base, accessLog: () => nginx.accessLog(), stop: () => nginx.stop() };
}
