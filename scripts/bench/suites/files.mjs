// File-share throughput: a large file through each upload path and back out,
// with the server's peak RSS. Size: BENCH_FILE_MB (default 1024).

import { startServer, testS3ConfigBody } from "../server-process.mjs";
import { drain, generatedBody, measure, printBaselines, send } from "../transfer.mjs";

const SIZE = Number(process.env.BENCH_FILE_MB ?? 1024) * 1024 * 1024;

async function s3Config(server, auth) {
  const body = testS3ConfigBody("bench");
  if (!body) return null;
  const res = await fetch(`${server.base}/api/s3-configs`, {
    method: "POST",
    headers: auth,
    body: JSON.stringify(body),
  });
  return (await res.json()).data.id;
}

export async function run() {
  await printBaselines(SIZE);
  const server = await startServer({ LOG_LEVEL: "warn" });
  try {
    const token = await server.login();
    const auth = { authorization: `Bearer ${token}`, "content-type": "application/json" };
    await server.allowUploadsOf(100, token);
    const targets = [["LOCAL", null]];
    const s3 = await s3Config(server, auth);
    if (s3) targets.push(["S3 (Swift)", s3]);
    for (const [name, configId] of targets) {
      const q = configId ? `?s3_config_id=${configId}` : "";
      const up = await measure(server, SIZE, `${name}: PUT /api/upload-direct`, () =>
        send(`${server.base}/api/upload-direct/big.bin${q}`, {
          headers: { authorization: `Bearer ${token}`, "content-length": String(SIZE) },
          body: generatedBody(SIZE),
        }),
      );
      const share = JSON.parse(up.text).data;
      if (!share?.downloadUrl) throw new Error(`upload failed: ${up.status} ${up.text}`);
      await measure(server, SIZE, `${name}: GET /api/file-download (proxied)`, () =>
        drain(`${server.base}${share.downloadUrl}`),
      );
      const presign = await (
        await fetch(`${server.base}/api/s3/presign`, {
          method: "POST",
          headers: auth,
          body: JSON.stringify({
            filename: "big2.bin",
            size: SIZE,
            ...(configId ? { s3_config_id: configId } : {}),
          }),
        })
      ).json();
      const target = presign.data.upload_url.startsWith("http")
        ? presign.data.upload_url
        : `${server.base}${presign.data.upload_url}`;
      await measure(
        server,
        SIZE,
        `${name}: presigned PUT${configId ? " (straight to S3)" : " (signed LOCAL URL)"}`,
        () =>
          send(target, {
            headers: { ...presign.data.upload_headers, "content-length": String(SIZE) },
            body: generatedBody(SIZE),
          }),
      );
      await fetch(`${server.base}/api/s3/commit`, {
        method: "POST",
        headers: auth,
        body: JSON.stringify({ file_id: presign.data.file_id }),
      });
      await fetch(`${server.base}/api/files/batch-delete`, {
        method: "DELETE",
        headers: auth,
        body: JSON.stringify({ ids: [share.id, presign.data.file_id] }),
      });
    }
  } finally {
    await server.stop();
  }
}
