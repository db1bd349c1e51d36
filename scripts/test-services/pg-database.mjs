// A throw-away PostgreSQL database on the test server, for one suite or one rig.
import { randomBytes } from "node:crypto";
import pg from "pg";

async function run(connectionString, sql) {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * Creates `<prefix>_<random>` through the admin URL (CLIPSHARE_TEST_PG_URL) and
 * returns its URL and a drop() that also ends connections still open to it.
 */
export async function createPgDatabase(prefix = "clipshare_test") {
  const adminUrl = process.env.CLIPSHARE_TEST_PG_URL;
  if (!adminUrl)
    throw new Error("PostgreSQL tests need CLIPSHARE_TEST_PG_URL (run scripts/test-services/start.sh)");
  const name = `${prefix}_${randomBytes(6).toString("hex")}`;
  await run(adminUrl, `CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => run(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}
