// Search over a LOCAL mount of BENCH_SEARCH_FOLDERS × BENCH_SEARCH_FILES entries (default
// 1,000 × 1,000 empty files): the full index crawl (time, the server's peak RSS), p50/p95 of 20
// new substring queries in every scope on the index, how long a renamed folder of 10,000
// entries takes to show in search, and a few of the same queries on the storage walk that
// mounts without an index still get. On SQLite, and on PostgreSQL too when
// CLIPSHARE_TEST_PG_URL is set (source .tmp/services.env).
// The tree is built once and reused by later runs: under BENCH_SEARCH_DIR, by default /dev/shm
// (a million inodes on a shared disk take many minutes to create), else the temp dir.
import { closeSync, existsSync, mkdirSync, openSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pgClient from "pg";
import { createPgDatabase } from "../../test-services/pg-database.mjs";
import { startServer } from "../server-process.mjs";
import { target } from "../targets.mjs";
import { cpuSeconds, rssSampler } from "../transfer.mjs";

const FOLDERS = Number(process.env.BENCH_SEARCH_FOLDERS ?? 1000);
const FILES = Number(process.env.BENCH_SEARCH_FILES ?? 1000);
const RENAME_ENTRIES = 10_000;
const pad = (n) => String(n).padStart(4, "0");

/** dir-0000 … with f-0000-0000.txt … in each, plus a folder of 10,000 files to rename. */
function buildTree() {
  const parent = process.env.BENCH_SEARCH_DIR ?? (existsSync("/dev/shm") ? "/dev/shm" : os.tmpdir());
  const root = path.join(parent, `clipshare-bench-search-${FOLDERS}x${FILES}`);
  const done = path.join(root, ".complete");
  if (existsSync(done)) return root;
  rmSync(root, { recursive: true, force: true });
  const t0 = performance.now();
  for (let d = 0; d < FOLDERS; d++) {
    const dir = path.join(root, "tree", `dir-${pad(d)}`);
    mkdirSync(dir, { recursive: true });
    for (let f = 0; f < FILES; f++) closeSync(openSync(path.join(dir, `f-${pad(d)}-${pad(f)}.txt`), "w"));
  }
  const big = path.join(root, "tree", "rename-me");
  mkdirSync(big);
  for (let i = 0; i < RENAME_ENTRIES; i++) closeSync(openSync(path.join(big, `r-${pad(i)}.bin`), "w"));
  writeFileSync(done, "");
  console.log(
    `built ${FOLDERS * FILES + RENAME_ENTRIES} entries in ${((performance.now() - t0) / 1000).toFixed(0)} s`,
  );
  return root;
}

async function api(server, auth, method, url, body) {
  const res = await fetch(`${server.base}${url}`, {
    method,
    headers: { ...auth, "content-type": "application/json" },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = await res.json();
  if (!json.success) throw new Error(`${method} ${url}: ${res.status} ${json.message}`);
  return json.data;
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/** Twenty substring queries none of which ran before: single files, a file in every folder, folders. */
function queries(round) {
  const pick = (i) => (i * 7919 + round * 104_729) % FOLDERS;
  const out = [];
  for (let i = 0; i < 10; i++) out.push(`${pad(pick(i))}-${pad((i * 131 + round) % FILES)}`);
  for (let i = 10; i < 15; i++) out.push(`-${pad((i * 37 + round * 11) % FILES)}.txt`);
  for (let i = 15; i < 20; i++) out.push(`r-${pad(pick(i))}`);
  return out;
}

/**
 * CPU seconds used so far by the server and, on PostgreSQL, by each database backend serving
 * it, by process id: robust where wall time is not (a shared machine).
 */
async function cpuOf(server, pg) {
  const seconds = new Map([[server.pid, cpuSeconds(server.pid)]]);
  if (pg) {
    const { rows } = await pg.query(
      "select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()",
    );
    for (const { pid } of rows) seconds.set(pid, cpuSeconds(pid));
  }
  return seconds;
}

/** CPU seconds between two cpuOf readings: new backends count whole, ended (idle) ones not at all. */
function cpuBetween(before, after) {
  let total = 0;
  for (const [pid, s] of after) total += s - (before.get(pid) ?? 0);
  return total;
}

async function timeQueries(server, auth, list, scopeQuery, pg) {
  const times = [];
  let truncated = 0;
  let results = 0;
  const cpu0 = await cpuOf(server, pg);
  for (const q of list) {
    const t0 = performance.now();
    const data = await api(server, auth, "GET", `/api/fs/search?q=${encodeURIComponent(q)}&${scopeQuery}`);
    times.push(performance.now() - t0);
    if (data.truncated) truncated++;
    results += data.total;
  }
  const cpuMs = (cpuBetween(cpu0, await cpuOf(server, pg)) * 1000) / list.length;
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p95: percentile(times, 95), truncated, results, cpuMs };
}

async function runOn(label, treeRoot, env) {
  const server = await startServer(env);
  const pg = env.DATABASE_URL ? new pgClient.Client({ connectionString: env.DATABASE_URL }) : null;
  await pg?.connect();
  try {
    const auth = { authorization: `Bearer ${await server.login()}` };
    const config = await api(server, auth, "POST", "/api/s3-configs", {
      storage_type: "LOCAL",
      name: "bench-tree",
      root_path: treeRoot,
    });
    const mount = await api(server, auth, "POST", "/api/admin/mounts", {
      name: "tree",
      storage_config_id: config.id,
      mount_path: "/tree",
      root: "tree",
      index_enabled: true,
    });

    const rss = rssSampler(server.pid);
    const t0 = performance.now();
    const task = await api(server, auth, "POST", `/api/admin/indexes/${mount.id}/crawl`, {});
    let state;
    for (;;) {
      state = await api(server, auth, "GET", `/api/fs/tasks/${task.id}`);
      if (["completed", "failed", "cancelled"].includes(state.status)) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    const crawlS = (performance.now() - t0) / 1000;
    const peak = rss.stop();
    if (state.status !== "completed") throw new Error(`crawl ${state.status}: ${state.error}`);
    console.log(
      `${label}: crawled ${state.processed_items} entries in ${crawlS.toFixed(1)} s, peak RSS ${peak} MB`,
    );
    target(`search ${label}: crawl peak RSS`, peak, { max: 200 }, "MB");
    console.log(`${label}: full crawl ${crawlS.toFixed(1)} s`);

    // Folder sizes: the mount root's 1,001 folders with and without their sizes (the same listing,
    // read from storage each time), and the root's own totals.
    const timed = async (url) => {
      const t1 = performance.now();
      await api(server, auth, "GET", url);
      return performance.now() - t1;
    };
    const listing = async (sizes) => {
      const times = [];
      for (let i = 0; i < 5; i++)
        times.push(await timed(`/api/fs/list?path=/tree&refresh=true&sizes=${sizes}`));
      return times.sort((a, b) => a - b)[2];
    };
    const [withSizes, without] = [await listing(true), await listing(false)];
    console.log(
      `${label}: list of the mount root, median of 5: ${withSizes.toFixed(0)} ms with folder sizes, ${without.toFixed(0)} ms without; its details ${(await timed("/api/fs/get?path=/tree")).toFixed(0)} ms`,
    );

    const scopes = {
      global: "scope=global",
      mount: `scope=mount&mount_id=${mount.id}`,
      folder: `scope=directory&path=${encodeURIComponent(`/tree/dir-${pad(Math.floor(FOLDERS / 2))}`)}`,
    };
    let round = 1;
    for (const [scope, query] of Object.entries(scopes)) {
      const r = await timeQueries(server, auth, queries(round++), query, pg);
      console.log(
        `${label}: 20 queries, ${scope.padEnd(6)}  p50 ${r.p50.toFixed(1)} ms  p95 ${r.p95.toFixed(1)} ms  CPU ${r.cpuMs.toFixed(1)} ms/query${pg ? " (server + database)" : ""}  (${r.results} results, ${r.truncated} truncated)`,
      );
      target(`search ${label}: p95 of 20 queries, ${scope}`, r.p95, { below: 100 }, "ms");
    }

    // A folder of 10,000 entries renamed: how long until its files are found under the new name.
    const r0 = performance.now();
    await api(server, auth, "POST", "/api/fs/rename", {
      oldPath: "/tree/rename-me",
      newPath: "/tree/renamed-now",
    });
    for (;;) {
      const found = await api(
        server,
        auth,
        "GET",
        `/api/fs/search?q=r-0042&scope=mount&mount_id=${mount.id}`,
      );
      if (found.results.some((r) => r.path === "/tree/renamed-now/r-0042.bin")) break;
      if (performance.now() - r0 > 30_000) throw new Error("the renamed folder never showed up");
    }
    const renameMs = performance.now() - r0;
    await api(server, auth, "POST", "/api/fs/rename", {
      oldPath: "/tree/renamed-now",
      newPath: "/tree/rename-me",
    });
    console.log(
      `${label}: rename of a ${RENAME_ENTRIES}-entry folder found in search after ${renameMs.toFixed(0)} ms`,
    );
    target(`search ${label}: rename of 10,000 entries in search`, renameMs, { below: 1000 }, "ms");

    if (label === "SQLite") {
      // The same folder once more, without an index: today's walk, for comparison.
      const walkMount = await api(server, auth, "POST", "/api/admin/mounts", {
        name: "walked",
        storage_config_id: config.id,
        mount_path: "/walked",
        root: "tree",
        allow_overlap: true,
      });
      const walk = await timeQueries(
        server,
        auth,
        queries(99).slice(0, 5),
        `scope=mount&mount_id=${walkMount.id}`,
      );
      console.log(
        `walk (no index), 5 of the queries: p50 ${walk.p50.toFixed(0)} ms  p95 ${walk.p95.toFixed(0)} ms  (${walk.results} results, ${walk.truncated} of 5 truncated)`,
      );
    }
  } finally {
    await pg?.end();
    await server.stop();
  }
}

export async function run() {
  const treeRoot = buildTree();
  await runOn("SQLite", treeRoot, {});
  if (process.env.CLIPSHARE_TEST_PG_URL) {
    const db = await createPgDatabase("clipshare_bench");
    try {
      await runOn("PostgreSQL", treeRoot, { DATABASE_URL: db.url });
    } finally {
      await db.drop();
    }
  } else {
    console.log("PostgreSQL: skipped (no CLIPSHARE_TEST_PG_URL)");
  }
}
