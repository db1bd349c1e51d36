// Uploads in parts, as the browser engine sends them: POST /api/files/multipart/init,
// every part PUT to its part URL with 3 parts in flight, then complete. LOCAL parts go
// through ClipShare (signed part URLs), S3 parts straight to the bucket (when
// CLIPSHARE_TEST_S3_* is set). Baseline: the same parts into a bare node:http sink.
// Size: BENCH_FILE_MB (default 1024); part size: BENCH_PART_MB (default 8).

import http from "node:http";
import { startServer, testS3ConfigBody } from "../server-process.mjs";
import { generatedBody, mbps, rssSampler, send, timed } from "../transfer.mjs";

const SIZE = Number(process.env.BENCH_FILE_MB ?? 1024) * 1024 * 1024;
const PART = Number(process.env.BENCH_PART_MB ?? 8) * 1024 * 1024;
const IN_FLIGHT = 3;

/** PUTs every part of `urls` with IN_FLIGHT at once; resolves with [{partNumber, etag}]. */
async function sendParts(urls) {
  const parts = [];
  let next = 0;
  const worker = async () => {
    while (next < urls.length) {
      const { partNumber, url } = urls[next++];
      const size = Math.min(PART, SIZE - (partNumber - 1) * PART);
      const res = await send(url, {
        headers: { "content-length": String(size) },
        body: generatedBody(size),
      });
      if (res.status !== 200) throw new Error(`part ${partNumber}: ${res.status} ${res.text}`);
      parts.push({ partNumber, etag: String(res.headers.etag ?? "").replace(/"/g, "") });
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  return parts.sort((a, b) => a.partNumber - b.partNumber);
}

async function baseline(partCount) {
  const sink = http.createServer((req, res) => {
    req.on("data", () => {});
    req.on("end", () => res.writeHead(200, { etag: '"x"' }).end());
  });
  await new Promise((r) => sink.listen(0, "127.0.0.1", r));
  const { port } = sink.address();
  const urls = Array.from({ length: partCount }, (_, i) => ({
    partNumber: i + 1,
    url: `http://127.0.0.1:${port}/part/${i + 1}`,
  }));
  const { seconds } = await timed(() => sendParts(urls));
  sink.close();
  return mbps(SIZE, seconds);
}

async function api(server, token, path, body) {
  const res = await fetch(`${server.base}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const json = await res.json();
  if (!res.ok) throw new Error(`${path}: ${res.status} ${json.message}`);
  return json.data;
}

export async function run() {
  const partCount = Math.ceil(SIZE / PART);
  console.log(
    `${SIZE / 1024 / 1024} MiB in ${partCount} parts of ${PART / 1024 / 1024} MiB, ${IN_FLIGHT} in flight`,
  );
  console.log(
    `${"baseline: the same parts into a bare node:http sink".padEnd(52)} ${(await baseline(partCount)).padStart(10)}`,
  );
  const server = await startServer({ LOG_LEVEL: "warn" });
  try {
    const token = await server.login();
    await fetch(`${server.base}/api/admin/system-settings`, {
      method: "PUT",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ max_upload_size: 100, max_upload_size_unit: "GB" }),
    });
    const targets = [["LOCAL (parts through ClipShare)", undefined]];
    const s3Body = testS3ConfigBody("bench-mp");
    if (s3Body) {
      const s3 = await api(server, token, "/api/s3-configs", s3Body);
      targets.push(["S3 (Swift, parts straight to the bucket)", s3.id]);
    }
    for (const [label, configId] of targets) {
      const rss = rssSampler(server.pid);
      const { result: done, seconds } = await timed(async () => {
        const init = await api(server, token, "/api/files/multipart/init", {
          filename: "big.bin",
          total_size: SIZE,
          part_size: PART,
          part_count: partCount,
          ...(configId ? { s3_config_id: configId } : {}),
        });
        const parts = await sendParts(init.presigned_urls);
        return api(server, token, "/api/files/multipart/complete", {
          file_id: init.file_id,
          upload_id: init.upload_id,
          parts,
        });
      });
      const peak = rss.stop();
      if (done.size !== SIZE) throw new Error(`${label}: stored ${done.size} bytes`);
      console.log(`${label.padEnd(52)} ${mbps(SIZE, seconds).padStart(10)}   peak RSS ${peak} MB`);
      await fetch(`${server.base}/api/files/batch-delete`, {
        method: "DELETE",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ ids: [done.fileId] }),
      });
    }
  } finally {
    await server.stop();
  }
}
