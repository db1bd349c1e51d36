import { formatLoad, load } from "../load.mjs";
import { ADMIN, startServer } from "../server-process.mjs";

export async function run() {
  const server = await startServer();
  try {
    console.log(`idle RSS after start: ${await server.rssMb()} MB`);
    console.log(
      formatLoad(
        "GET /api/health (c50)",
        await load({ url: `${server.base}/api/health`, connections: 50, seconds: 10 }),
      ),
    );
    // Login is deliberately expensive (scrypt). Concurrent logins with the same credentials from
    // one address share one check (the rate limiter counts them as one attempt), so this measures
    // that path; distinct users each cost a hash (see the auth suite for the idle login latency).
    console.log(
      formatLoad(
        "POST /api/admin/login (c10)",
        await load({
          url: `${server.base}/api/admin/login`,
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(ADMIN),
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
