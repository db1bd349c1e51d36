// Upload throughput (issue 29 item 7). Uploads in parts, as the browser engine sends
// them: POST /api/files/multipart/init, every part PUT to its part URL with 3 parts in
// flight, then complete. LOCAL parts go through ClipShare (signed part URLs), S3 parts
// straight to the bucket (when CLIPSHARE_TEST_S3_* is set). Then single-request uploads
// of the same file to LOCAL: the share form (POST /api/upload) and WebDAV PUT.
// Floor: a bare node:http server writing the same parts, 3 in flight, to files on the
// same disk as the server's data directory, measured in the same run. Targets: LOCAL
// multipart, form and WebDAV PUT each ≥ 0.5× the floor; peak server RSS ≤ 200 MB.
// Size: BENCH_FILE_MB (default 1024); part size: BENCH_PART_MB (default 8).

import { createWriteStream, mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { ADMIN, mountLocal, startServer, testS3ConfigBody } from "../server-process.mjs";
import { target } from "../targets.mjs";
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

const MBps = (seconds) => SIZE / 1024 / 1024 / seconds;

/** The floor: each part written to its own file by a bare node:http server. */
async function diskSinkFloor(partCount) {
  const dir = mkdtempSync(path.join(os.tmpdir(), "clipshare-bench-sink-"));
  let n = 0;
  const sink = http.createServer((req, res) => {
    pipeline(req, createWriteStream(path.join(dir, String(n++)))).then(
      () => res.writeHead(200, { etag: '"x"' }).end(),
      () => res.writeHead(500).end(),
    );
  });
  await new Promise((r) => sink.listen(0, "127.0.0.1", r));
  const { port } = sink.address();
  const urls = Array.from({ length: partCount }, (_, i) => ({
    partNumber: i + 1,
    url: `http://127.0.0.1:${port}/part/${i + 1}`,
  }));
  const { seconds } = await timed(() => sendParts(urls));
  sink.close();
  rmSync(dir, { recursive: true, force: true });
  return MBps(seconds);
}

/** A multipart/form-data body: the share fields, then the file, streamed. */
function formUpload(url, token) {
  const boundary = "----clipshare-bench-boundary";
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="remark"\r\n\r\nbench\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="form.bin"\r\n` +
      "Content-Type: application/octet-stream\r\n\r\n",
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  async function* body() {
    yield head;
    yield* generatedBody(SIZE);
    yield tail;
  }
  return send(url, {
    method: "POST",
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": `multipart/form-data; boundary=${boundary}`,
      "content-length": String(head.length + SIZE + tail.length),
    },
    body: Readable.from(body()),
  });
}

const authed = (server, token, path, init = {}) =>
  fetch(`${server.base}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json", ...init.headers },
  });

const removeShare = (server, token, id) =>
  authed(server, token, "/api/files/batch-delete", { method: "DELETE", body: JSON.stringify({ ids: [id] }) });

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
  // On a shared machine one floor run can be slow by chance: the better of two (before and
  // after ClipShare's runs) is the stricter comparison.
  const floorRun = async (label) => {
    const value = await diskSinkFloor(partCount);
    console.log(`${label.padEnd(52)} ${`${value.toFixed(0)} MB/s`.padStart(10)}`);
    return value;
  };
  let floor = await floorRun("floor: the same parts, bare node:http to disk");
  const server = await startServer({ LOG_LEVEL: "warn" });
  let peakRss = 0;
  const ratios = [];
  const measure = async (label, fn) => {
    const rss = rssSampler(server.pid);
    const { result, seconds } = await timed(fn);
    const peak = rss.stop();
    peakRss = Math.max(peakRss, peak);
    console.log(`${label.padEnd(52)} ${mbps(SIZE, seconds).padStart(10)}   peak RSS ${peak} MB`);
    return { result, ratio: () => MBps(seconds) / floor };
  };
  try {
    const token = await server.login();
    await server.allowUploadsOf(100, token);
    const targets = [["LOCAL (parts through ClipShare)", undefined]];
    const s3Body = testS3ConfigBody("bench-mp");
    if (s3Body) {
      const s3 = await api(server, token, "/api/s3-configs", s3Body);
      targets.push(["S3 (Swift, parts straight to the bucket)", s3.id]);
    }
    for (const [label, configId] of targets) {
      const { result: done, ratio } = await measure(label, async () => {
        const init = await api(server, token, "/api/files/multipart/init", {
          filename: "big.bin",
          total_size: SIZE,
          part_size: PART,
          part_count: partCount,
          ...(configId ? { s3_config_id: configId } : {}),
        });
        const sent = await timed(() => sendParts(init.presigned_urls));
        const completed = await timed(() =>
          api(server, token, "/api/files/multipart/complete", {
            file_id: init.file_id,
            upload_id: init.upload_id,
            parts: sent.result,
          }),
        );
        // Where the time goes: the parts, and the assembly when completing.
        console.log(`  parts ${sent.seconds.toFixed(1)} s, complete ${completed.seconds.toFixed(1)} s`);
        return completed.result;
      });
      if (done.size !== SIZE) throw new Error(`${label}: stored ${done.size} bytes`);
      if (!configId) ratios.push(["multipart upload to LOCAL / disk-sink floor", ratio]);
      await removeShare(server, token, done.fileId);
    }
    const form = await measure("LOCAL: form upload (POST /api/upload)", () =>
      formUpload(`${server.base}/api/upload`, token),
    );
    if (form.result.status !== 201) throw new Error(`form upload: ${form.result.status} ${form.result.text}`);
    ratios.push(["form upload to LOCAL / disk-sink floor", form.ratio]);
    await removeShare(server, token, JSON.parse(form.result.text).data.id);

    await mountLocal(server, token);
    const basic = `Basic ${Buffer.from(`${ADMIN.username}:${ADMIN.password}`).toString("base64")}`;
    const dav = await measure("LOCAL: WebDAV PUT (one request)", () =>
      send(`${server.base}/dav/bench-local/big.bin`, {
        headers: { authorization: basic, "content-length": String(SIZE) },
        body: generatedBody(SIZE),
      }),
    );
    if (dav.result.status !== 201) throw new Error(`WebDAV PUT: ${dav.result.status} ${dav.result.text}`);
    ratios.push(["WebDAV PUT to LOCAL / disk-sink floor", dav.ratio]);
    floor = Math.max(floor, await floorRun("floor again, after ClipShare's runs"));
    for (const [label, ratio] of ratios) target(label, ratio(), { min: 0.5 }, "×");
    target("peak server RSS during uploads", peakRss, { max: 200 }, "MB");
  } finally {
    await server.stop();
  }
}
