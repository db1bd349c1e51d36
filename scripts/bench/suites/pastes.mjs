import { formatLoad, load } from "../load.mjs";
import { startServer } from "../server-process.mjs";

export async function run() {
  const server = await startServer();
  try {
    const token = await server.login();
    const auth = { authorization: `Bearer ${token}`, "content-type": "application/json" };
    const res = await fetch(`${server.base}/api/paste`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify({
        content: "# Benchmark\n\nHello from the ClipShare benchmark. ".repeat(20),
        slug: "bench-paste",
      }),
    });
    if (res.status !== 201) throw new Error(`create failed: ${res.status} ${await res.text()}`);
    // Each GET counts a view, so this measures a write per request.
    console.log(
      formatLoad(
        "GET /api/paste/:slug (c50, counts)",
        await load({ url: `${server.base}/api/paste/bench-paste`, connections: 50, seconds: 15 }),
      ),
    );
    console.log(
      formatLoad(
        "GET /api/raw/:slug (c50, counts)",
        await load({ url: `${server.base}/api/raw/bench-paste`, connections: 50, seconds: 10 }),
      ),
    );
    console.log(
      formatLoad(
        "POST /api/paste (c10, create)",
        await load({
          url: `${server.base}/api/paste`,
          method: "POST",
          headers: auth,
          body: JSON.stringify({ content: "benchmark paste body", remark: "bench" }),
          connections: 10,
          seconds: 10,
        }),
      ),
    );
    console.log(`RSS after load: ${await server.rssMb()} MB`);
  } finally {
    await server.stop();
  }
}
