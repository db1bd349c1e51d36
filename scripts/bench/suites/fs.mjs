// Explorer file system: first-page latency of a 10,000-entry directory (cold = storage listing,
// cached = directory cache) on LOCAL (also as a visitor, the folder made public) and, when
// CLIPSHARE_TEST_S3_* is set, on S3; then ZIP
// streaming throughput with the server's peak RSS.
// BENCH_DIR_ENTRIES (default 10000), BENCH_ZIP_MB (default 1024: four files on LOCAL; one of them on S3).
import { createWriteStream, mkdirSync, writeFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { testS3FromEnv } from "../../test-services/s3-config-body.mjs";
import { startServer, testS3ConfigBody } from "../server-process.mjs";
import { generatedBody, mbps, rssSampler, timed } from "../transfer.mjs";

const ENTRIES = Number(process.env.BENCH_DIR_ENTRIES ?? 10_000);
const ZIP_MB = Number(process.env.BENCH_ZIP_MB ?? 1024);
const MiB = 1024 * 1024;

async function api(server, auth, method, url, body) {
  const res = await fetch(`${server.base}${url}`, {
    method,
    headers: auth,
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = await res.json();
  if (!json.success) throw new Error(`${method} ${url}: ${res.status} ${json.message}`);
  return json.data;
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Median and p95 of `runs` timed listings. */
async function listingLatency(server, auth, url, runs) {
  const times = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const res = await fetch(`${server.base}${url}`, { headers: auth });
    const json = await res.json();
    times.push(performance.now() - t0);
    if (!json.success) throw new Error(json.message);
  }
  times.sort((a, b) => a - b);
  return `median ${percentile(times, 50).toFixed(1)} ms, p95 ${percentile(times, 95).toFixed(1)} ms`;
}

async function reportListing(server, auth, label, dir) {
  const url = (limit, refresh) =>
    `/api/fs/list?path=${encodeURIComponent(dir)}&limit=${limit}${refresh ? "&refresh=true" : ""}`;
  for (const limit of [100, 1000]) {
    const cold = await listingLatency(server, auth, url(limit, true), 15);
    const cached = await listingLatency(server, auth, url(limit, false), 100);
    console.log(
      `${`${label}: first page of ${ENTRIES} (limit ${limit})`.padEnd(46)} cold ${cold}   cached ${cached}`,
    );
  }
}

/** POSTs a ZIP request and drains the archive; returns bytes received. */
function drainZip(server, token, paths) {
  const body = JSON.stringify({ paths });
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${server.base}/api/fs/zip`,
      {
        method: "POST",
        headers: {
          authorization: `Bearer ${token}`,
          "content-type": "application/json",
          "content-length": Buffer.byteLength(body),
        },
      },
      (res) => {
        let bytes = 0;
        res.on("data", (c) => {
          bytes += c.length;
        });
        res.on("end", () =>
          res.statusCode === 200 ? resolve(bytes) : reject(new Error(`zip: HTTP ${res.statusCode}`)),
        );
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

async function reportZip(server, token, label, paths, totalBytes) {
  const before = await server.rssMb();
  const rss = rssSampler(server.pid);
  const { result: bytes, seconds } = await timed(() => drainZip(server, token, paths));
  const peak = rss.stop();
  console.log(
    `${`${label}: ZIP of ${Math.round(totalBytes / MiB)} MiB`.padEnd(46)} ${mbps(bytes, seconds).padStart(10)}   RSS ${before} MB before, peak ${peak} MB`,
  );
}

async function s3Mount(server, auth) {
  const body = testS3ConfigBody("bench-fs");
  if (!body) return null;
  const folder = body.default_folder;
  const config = await api(server, auth, "POST", "/api/s3-configs", body);
  await api(server, auth, "POST", "/api/admin/mounts", {
    name: "S3",
    storage_type: "S3",
    storage_config_id: config.id,
    mount_path: "/s3",
  });
  return folder;
}

/**
 * Fills an S3 directory straight through the S3 API (64 PUTs at a time): setup, not the thing
 * measured, and the server would add nothing but time here.
 */
async function fillS3(folder, dir, count) {
  const { PutObjectCommand, S3Client } = await import("@aws-sdk/client-s3");
  const s3 = testS3FromEnv();
  const client = new S3Client({
    endpoint: s3.endpoint,
    region: s3.region,
    credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
    forcePathStyle: true,
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      const Key = `${folder}/${dir}/file-${String(i).padStart(5, "0")}.txt`;
      await client.send(new PutObjectCommand({ Bucket: s3.bucket, Key, Body: "x", ContentLength: 1 }));
    }
  };
  await Promise.all(Array.from({ length: 64 }, worker));
  client.destroy();
}

async function waitTask(server, auth, id) {
  for (;;) {
    const task = await api(server, auth, "GET", `/api/fs/tasks/${id}`);
    if (["completed", "failed", "cancelled", "partial"].includes(task.status)) return task;
    await new Promise((r) => setTimeout(r, 200));
  }
}

export async function run() {
  const server = await startServer({ LOG_LEVEL: "warn" });
  try {
    const token = await server.login();
    const auth = { authorization: `Bearer ${token}`, "content-type": "application/json" };
    const local = (await api(server, auth, "GET", "/api/s3-configs")).find((c) => c.storage_type === "LOCAL");
    await api(server, auth, "POST", "/api/admin/mounts", {
      name: "Local",
      storage_type: "LOCAL",
      storage_config_id: local.id,
      mount_path: "/local",
    });

    const many = path.join(local.root_path, "many");
    mkdirSync(many, { recursive: true });
    for (let i = 0; i < ENTRIES; i++)
      writeFileSync(path.join(many, `file-${String(i).padStart(5, "0")}.txt`), "x");
    await reportListing(server, auth, "LOCAL", "/local/many");
    // The same folder made public, listed by a visitor: the folder rules and the link rule per entry.
    await api(server, auth, "PUT", "/api/admin/folder-settings", { path: "/local/many", public_list: true });
    await reportListing(server, {}, "LOCAL, as a visitor (public)", "/local/many");

    const s3 = await s3Mount(server, auth);
    if (s3) {
      const { seconds } = await timed(() => fillS3(s3, "many", ENTRIES));
      console.log(`S3: created ${ENTRIES} objects (setup) in ${seconds.toFixed(1)} s`);
      await reportListing(server, auth, "S3 (Swift)", "/s3/many");
    } else {
      console.log("S3: skipped (CLIPSHARE_TEST_S3_* not set)");
    }

    const zipDir = path.join(local.root_path, "zip");
    mkdirSync(zipDir, { recursive: true });
    const parts = 4;
    for (let i = 0; i < parts; i++) {
      await pipeline(
        generatedBody((ZIP_MB * MiB) / parts),
        createWriteStream(path.join(zipDir, `part-${i}.bin`)),
      );
    }
    await reportZip(server, token, "LOCAL", ["/local/zip"], ZIP_MB * MiB);
    if (s3) {
      const copy = await api(server, auth, "POST", "/api/fs/batch-copy", {
        items: [{ sourcePath: "/local/zip/part-0.bin", targetPath: "/s3/zip/part-0.bin" }],
      });
      await waitTask(server, auth, copy.taskId);
      await reportZip(server, token, "S3 (Swift)", ["/s3/zip"], (ZIP_MB * MiB) / parts);
      const removal = await api(server, auth, "DELETE", "/api/fs/batch-remove", {
        paths: ["/s3/many/", "/s3/zip/"],
      });
      if (removal.taskId) await waitTask(server, auth, removal.taskId);
    }
  } finally {
    await server.stop();
  }
}
