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
    // Login is deliberately expensive (scrypt); this shows how many logins a box can absorb.
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
