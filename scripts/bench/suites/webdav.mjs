// WebDAV throughput: PUT and GET of a large file through /dav, in both upload
// modes (direct: one streamed write; multipart: parts of bounded size), with
// the server's peak RSS. LOCAL always; the test S3 server too when
// CLIPSHARE_TEST_S3_* is set. Size: BENCH_FILE_MB (default 1024).

import { ADMIN, startServer, testS3ConfigBody } from "../server-process.mjs";
import { drain, generatedBody, measure, printBaselines, send } from "../transfer.mjs";

const SIZE = Number(process.env.BENCH_FILE_MB ?? 1024) * 1024 * 1024;
const BASIC = `Basic ${Buffer.from(`${ADMIN.username}:${ADMIN.password}`).toString("base64")}`;

async function api(server, token, method, path, body) {
  const res = await fetch(`${server.base}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = await res.json();
  if (!json.success) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json.data;
}

async function mounts(server, token) {
  const configs = await api(server, token, "GET", "/api/s3-configs");
  const local = configs.find((c) => c.storage_type === "LOCAL");
  const list = [["LOCAL", "bench-local", "LOCAL", local.id]];
  const s3Body = testS3ConfigBody("bench-dav");
  if (s3Body) {
    const s3 = await api(server, token, "POST", "/api/s3-configs", s3Body);
    list.push(["S3 (Swift)", "bench-s3", "S3", s3.id]);
  }
  for (const [, name, type, configId] of list) {
    await api(server, token, "POST", "/api/admin/mounts", {
      name,
      storage_type: type,
      storage_config_id: configId,
      mount_path: `/${name}`,
      webdav_policy: "native_proxy",
      cache_ttl: 0,
    });
  }
  return list;
}

export async function run() {
  await printBaselines(SIZE);
  const server = await startServer({ LOG_LEVEL: "warn" });
  try {
    const token = await server.login();
    await server.allowUploadsOf(100, token);
    for (const [label, name] of await mounts(server, token)) {
      for (const mode of ["direct", "multipart"]) {
        await api(server, token, "PUT", "/api/admin/system-settings", { webdav_upload_mode: mode });
        const url = `${server.base}/dav/${name}/big-${mode}.bin`;
        const put = await measure(server, SIZE, `${label}: WebDAV PUT (${mode})`, () =>
          send(url, {
            headers: { authorization: BASIC, "content-length": String(SIZE) },
            body: generatedBody(SIZE),
          }),
        );
        if (put.status !== 201) throw new Error(`PUT failed: ${put.status} ${put.text}`);
      }
      const got = await measure(server, SIZE, `${label}: WebDAV GET (streamed through)`, () =>
        drain(`${server.base}/dav/${name}/big-direct.bin`, { authorization: BASIC }),
      );
      if (got.status !== 200 || got.bytes !== SIZE)
        throw new Error(`GET failed: ${got.status}, ${got.bytes} bytes`);
      for (const mode of ["direct", "multipart"]) {
        await send(`${server.base}/dav/${name}/big-${mode}.bin`, {
          method: "DELETE",
          headers: { authorization: BASIC },
        });
      }
    }
    const status = (await import("node:fs")).readFileSync(`/proc/${server.pid}/status`, "utf8");
    const hwm = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
    console.log(`peak RSS over the whole run (VmHWM): ${Math.round(hwm / 102.4) / 10} MB`);
  } finally {
    await server.stop();
  }
}
