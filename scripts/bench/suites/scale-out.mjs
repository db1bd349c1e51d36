// Scale-out: paste views per second through nginx with one and with two ClipShare instances on
// one PostgreSQL (the ratio is what a second instance adds on this machine), and how soon a
// listing cached on one instance is invalidated after a write on the other (LISTEN/NOTIFY).
// Needs the test services (scripts/test-services/start.sh; source .tmp/services.env) and nginx.
import os from "node:os";
import { RIG_ADMIN, rigMissing, startRig } from "../../scale-out/rig.mjs";
import { formatLoad, load } from "../load.mjs";
import { testS3ConfigBody } from "../server-process.mjs";

async function api(base, method, url, token, body) {
  const res = await fetch(`${base}${url}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined ? { "content-type": "application/json" } : {}),
    },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

async function login(base) {
  return (await api(base, "POST", "/api/admin/login", null, RIG_ADMIN)).data.token;
}

/** Paste views (each counts a view: one database write per request) through nginx. */
async function pasteViews(count) {
  const rig = await startRig({ count });
  try {
    const token = await login(rig.url);
    await api(rig.url, "POST", "/api/paste", token, {
      content: "# Benchmark\n\nHello from the ClipShare scale-out benchmark. ".repeat(20),
      slug: "bench-scale",
    });
    return await load({ url: `${rig.url}/api/paste/bench-scale`, connections: 50, seconds: 10 });
  } finally {
    await rig.stop();
  }
}

async function invalidationDelays(rounds) {
  const rig = await startRig();
  try {
    const [a, b] = rig.instances.map((i) => i.url);
    const token = await login(a);
    const config = await api(a, "POST", "/api/s3-configs", token, testS3ConfigBody("bench-scale-out"));
    await api(a, "POST", "/api/admin/mounts", token, {
      name: "bench",
      storage_type: "S3",
      storage_config_id: config.data.id,
      mount_path: "/bench",
      cache_ttl: 300,
    });
    const put = (base, name) =>
      fetch(`${base}/api/fs/upload?path=${encodeURIComponent(`/bench/dir/${name}`)}`, {
        method: "PUT",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/octet-stream" },
        body: "x",
      }).then((r) => r.text());
    const listA = async () =>
      (await api(a, "GET", `/api/fs/list?path=${encodeURIComponent("/bench/dir")}`, token)).data;
    await put(a, "seed.txt");
    const delays = [];
    for (let i = 0; i < rounds; i++) {
      await listA();
      if (!(await listA()).cached) throw new Error("the listing on instance a is not cached");
      const name = `b-${i}.txt`;
      await put(b, name);
      const written = performance.now();
      while (!(await listA()).items.some((item) => item.name === name)) {
        if (performance.now() - written > 5000) throw new Error("not invalidated within 5 s");
      }
      delays.push(performance.now() - written);
    }
    return delays.sort((x, y) => x - y);
  } finally {
    await rig.stop();
  }
}

export async function run() {
  const missing = rigMissing();
  if (missing) throw new Error(`scale-out suite: ${missing}`);
  console.log(
    `load average before: ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`,
  );
  const one = await pasteViews(1);
  console.log(formatLoad("GET /api/paste/:slug, 1 instance", one));
  const two = await pasteViews(2);
  console.log(formatLoad("GET /api/paste/:slug, 2 instances", two));
  console.log(
    `two instances / one: ${(two.rps / one.rps).toFixed(2)}x (nginx, PostgreSQL and the load generator share ${os.cpus().length} cores)`,
  );
  const delays = await invalidationDelays(20);
  const pick = (q) => delays[Math.min(delays.length - 1, Math.floor(q * delays.length))].toFixed(1);
  console.log(
    `cache invalidation a <- write on b: median ${pick(0.5)} ms, p90 ${pick(0.9)} ms, max ${delays.at(-1).toFixed(1)} ms (${delays.length} rounds)`,
  );
  console.log(
    `load average after: ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`,
  );
}
