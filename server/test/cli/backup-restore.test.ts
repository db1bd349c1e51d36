/**
 * `clipshare-server backup` / `restore` as child processes: a SQLite installation in use is
 * backed up, restored into an empty PostgreSQL database, backed up from there (gzip) and
 * restored into an empty SQLite database. Every row survives unchanged and the restored
 * installations serve the same pastes, files, keys, settings, mounts and storage credentials.
 * Then the refusals: a non-empty database without --force, a cut-off or newer backup,
 * another SECRET_KEY.
 */
import { randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { Permission } from "@clipshare/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isDerivedTable } from "../../src/db/backup/format";
import { runCli, serverEnv } from "../support/cli";
import {
  ADMIN_PASSWORD,
  ADMIN_USERNAME,
  createPgDatabase,
  createTestApp,
  type TestApp,
} from "../support/test-app";

const pgAvailable = Boolean(process.env.CLIPSHARE_TEST_PG_URL);
if (!pgAvailable && process.env.CLIPSHARE_REQUIRE_SERVICES === "1") {
  throw new Error("CLIPSHARE_TEST_PG_URL is not set; start the services with scripts/test-services/start.sh");
}

/** Each test runs the command several times, a second or more each on a busy machine. */
const CLI_TIMEOUT = { timeout: 180_000 };

const work = mkdtempSync(path.join(os.tmpdir(), "clipshare-backup-test-"));
const cleanups: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  rmSync(work, { recursive: true, force: true });
});

/** An installation on SQLite whatever CLIPSHARE_TEST_DB says (the round trip picks its databases). */
async function sqliteApp(env: Record<string, string> = {}): Promise<TestApp> {
  const t = await createTestApp({ DATABASE_URL: "", ...env });
  cleanups.push(() => t.close());
  return t;
}

async function freshPg(): Promise<string> {
  const db = await createPgDatabase();
  cleanups.push(() => db.drop());
  return db.url;
}

const freshDir = () => mkdtempSync(path.join(work, "data-"));

/** A backup's rows by table, each table's rows sorted (row order differs between databases). */
function backupRows(file: string): Record<string, { columns: string[]; rows: string[] }> {
  let text = readFileSync(file);
  if (file.endsWith(".gz")) text = gunzipSync(text);
  const lines = text.toString("utf8").trim().split("\n");
  const tables: Record<string, { columns: string[]; rows: string[] }> = {};
  let current: { columns: string[]; rows: string[] } | null = null;
  for (const line of lines.slice(1)) {
    const item = JSON.parse(line);
    if (Array.isArray(item)) current!.rows.push(line);
    else if (item.table) {
      current = { columns: item.columns, rows: [] };
      tables[item.table] = current;
    }
  }
  for (const table of Object.values(tables)) table.rows.sort();
  return tables;
}

describe.skipIf(!pgAvailable)("backup and restore", CLI_TIMEOUT, () => {
  let source: TestApp;
  let secretKey: string;
  let keyEnv: Record<string, string>;
  const made = { plain: "", locked: "", limited: "", file: "", key: "", s3Id: "", mountId: "" };

  beforeAll(async () => {
    source = await sqliteApp();
    secretKey = readFileSync(path.join(source.dataDir, "secret.key"), "utf8").trim();
    keyEnv = { SECRET_KEY: secretKey };
    const token = await source.adminToken();
    const paste = async (body: Record<string, unknown>) => {
      const res = await source.request("POST", "/api/paste", { token, body });
      expect(res.status, res.text).toBe(201);
      return res.body.data.slug as string;
    };
    made.plain = await paste({ content: "plain text ✓ \u{1F600}\nsecond line", remark: "kept remark" });
    made.locked = await paste({ content: "behind a password", password: "open-sesame-1" });
    made.limited = await paste({ content: "three views", max_views: 3 });
    expect((await source.request("GET", `/api/paste/${made.limited}`)).status).toBe(200);

    const upload = await source.request("PUT", "/api/upload-direct/notes.txt", {
      token,
      rawBody: "file body",
      headers: { "content-type": "text/plain" },
    });
    expect(upload.status, upload.text).toBe(201);
    made.file = upload.body.data.slug;
    made.key = (await source.createApiKey(Permission.TEXT, { name: "backup-key" })).key;

    const settings = await source.request("PUT", "/api/admin/system-settings", {
      token,
      body: { max_upload_size: 7, max_upload_size_unit: "MB" },
    });
    expect(settings.status, settings.text).toBe(200);
    const s3 = await source.request("POST", "/api/s3-configs", {
      token,
      body: {
        name: "Offsite",
        provider_type: "Other",
        endpoint_url: "https://s3.example.com",
        bucket_name: "bucket",
        access_key_id: "AKIAEXAMPLE",
        secret_access_key: "secret-example",
      },
    });
    expect(s3.status, s3.text).toBe(201);
    made.s3Id = s3.body.data.id;
    const local = (await source.request("GET", "/api/s3-configs", { token })).body.data.find(
      (c: { storage_type: string }) => c.storage_type === "LOCAL",
    );
    const mount = await source.request("POST", "/api/admin/mounts", {
      token,
      body: { name: "Docs", storage_type: "LOCAL", storage_config_id: local.id, mount_path: "/docs" },
    });
    expect(mount.status, mount.text).toBe(201);
    made.mountId = mount.body.data.id;

    // More rows than one page of the dump, with a two-column key sharing its first column.
    const now = new Date().toISOString();
    const props = Array.from({ length: 1100 }, (_, i) => ({
      path: `/docs/file-${i % 7}`,
      name: `{urn:test}p${String(i).padStart(4, "0")}`,
      value_xml: `<p>${i}</p>`,
      updated_at: now,
    }));
    for (let i = 0; i < props.length; i += 100) {
      await source.ctx.db
        .insertInto("webdav_props")
        .values(props.slice(i, i + 100))
        .execute();
    }
  });

  /** What a user of the restored installation sees. */
  async function expectSameContent(t: TestApp) {
    const plain = await t.request("GET", `/api/paste/${made.plain}`);
    expect(plain.status, plain.text).toBe(200);
    expect(plain.body.data.content).toBe("plain text ✓ \u{1F600}\nsecond line");
    expect(plain.body.data.remark).toBe("kept remark");

    const locked = await t.request("GET", `/api/paste/${made.locked}`);
    expect(locked.body.data?.content).toBeUndefined();
    const wrong = await t.request("POST", `/api/paste/${made.locked}`, { body: { password: "nope-nope" } });
    expect(wrong.status).toBe(401);
    const right = await t.request("POST", `/api/paste/${made.locked}`, {
      body: { password: "open-sesame-1" },
    });
    expect(right.status, right.text).toBe(200);
    expect(right.body.data.content).toBe("behind a password");

    // One of three views was used before the backup: two are left.
    expect((await t.request("GET", `/api/paste/${made.limited}`)).status).toBe(200);
    expect((await t.request("GET", `/api/paste/${made.limited}`)).status).toBe(200);
    expect((await t.request("GET", `/api/paste/${made.limited}`)).status).toBe(410);

    const file = await t.request("GET", `/api/public/files/${made.file}`);
    expect(file.status, file.text).toBe(200);
    expect(file.body.data.filename).toBe("notes.txt");
    expect((await t.request("GET", `/api/file-download/${made.file}`)).text).toBe("file body");

    const key = await t.request("GET", "/api/test/api-key", { apiKey: made.key });
    expect(key.status, key.text).toBe(200);
    expect(key.body.data.key_info.name).toBe("backup-key");

    const login = await t.request("POST", "/api/admin/login", {
      body: { username: ADMIN_USERNAME, password: ADMIN_PASSWORD },
    });
    expect(login.status, login.text).toBe(200);
    const token = login.body.data.token;
    const settings = await t.request("GET", "/api/admin/system-settings", { token });
    const setting = (key: string) => settings.body.data.find((s: { key: string }) => s.key === key)?.value;
    expect([setting("max_upload_size"), setting("max_upload_size_unit")]).toEqual(["7", "MB"]);
    const mounts = (await t.request("GET", "/api/admin/mounts", { token })).body.data;
    expect(mounts.map((m: { id: string; mount_path: string }) => [m.id, m.mount_path])).toEqual([
      [made.mountId, "/docs"],
    ]);
    // The sealed credentials open under the same SECRET_KEY.
    const s3 = await t.request("GET", `/api/s3-configs/${made.s3Id}`, { token });
    expect(s3.body.data.access_key_id).toBe("AKIA***MPLE");
  }

  it("SQLite → PostgreSQL → SQLite keeps every row, and both copies serve the same content", async () => {
    const first = path.join(work, "from-sqlite.jsonl");
    const dumped = await runCli(["backup", first], serverEnv(source));
    expect(dumped.code, dumped.stderr).toBe(0);
    expect(dumped.stdout).toMatch(
      /Backed up \d+ rows \(pastes 3, files 1, api_keys 1, mounts 1, storage_configs 2/,
    );
    expect(statSync(first).mode & 0o777).toBe(0o600);
    const header = JSON.parse(readFileSync(first, "utf8").split("\n")[0]!);
    expect(header).toMatchObject({ format: "clipshare-backup", version: 1, dialect: "sqlite" });
    expect(header.contents).toContain("stored files are not included");

    const pgUrl = await freshPg();
    const pgEnv = { DATA_DIR: freshDir(), DATABASE_URL: pgUrl, ...keyEnv };
    const intoPg = await runCli(["restore", first], pgEnv);
    expect(intoPg.code, intoPg.stderr).toBe(0);
    expect(intoPg.stdout).toContain("from sqlite");
    const second = path.join(work, "from-postgres.jsonl.gz");
    const dumpedPg = await runCli(["backup", second], pgEnv);
    expect(dumpedPg.code, dumpedPg.stderr).toBe(0);
    expect(readFileSync(second).subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));

    const sqliteDir = freshDir();
    const sqliteEnv = { DATA_DIR: sqliteDir, ...keyEnv };
    const intoSqlite = await runCli(["restore", second], sqliteEnv);
    expect(intoSqlite.code, intoSqlite.stderr).toBe(0);
    const third = path.join(work, "from-sqlite-again.jsonl");
    expect((await runCli(["backup", third], sqliteEnv)).code).toBe(0);

    const original = backupRows(first);
    // Every table of the schema is in the backup (a new table must be added to BACKUP_TABLES),
    // except the search index, which is rebuilt by crawling.
    const tables = (await source.ctx.db.introspection.getTables()).filter((t) => !isDerivedTable(t.name));
    expect(Object.keys(original).sort()).toEqual(tables.map((table) => table.name).sort());
    expect(original.webdav_props!.rows).toHaveLength(1100);
    expect(original.pastes!.rows).toHaveLength(3);
    expect(backupRows(second)).toEqual(original);
    expect(backupRows(third)).toEqual(original);

    await expectSameContent(await sqliteApp({ DATABASE_URL: pgUrl, ...keyEnv }));
    await expectSameContent(await sqliteApp({ DATA_DIR: sqliteDir, ...keyEnv }));
  });

  it("refuses a database that is not empty unless --force, which replaces its content", async () => {
    const file = path.join(work, "for-force.jsonl");
    expect((await runCli(["backup", file], serverEnv(source))).code).toBe(0);
    const target = await sqliteApp(keyEnv);
    const token = await target.adminToken();
    const own = await target.request("POST", "/api/paste", { token, body: { content: "only here" } });
    expect(own.status).toBe(201);

    const targetEnv = { ...serverEnv(target), ...keyEnv };
    const refused = await runCli(["restore", file], targetEnv);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/The database is not empty \(.*pastes: 1.*\); pass --force/);
    expect((await target.request("GET", `/api/paste/${own.body.data.slug}`)).status).toBe(200);

    const forced = await runCli(["restore", file, "--force"], targetEnv);
    expect(forced.code, forced.stderr).toBe(0);
    expect((await target.request("GET", `/api/paste/${own.body.data.slug}`)).status).toBe(404);
    expect((await target.request("GET", `/api/paste/${made.plain}`)).body.data.content).toContain(
      "plain text",
    );
  });

  describe("refusals that leave the database empty", () => {
    let good: string[];
    beforeAll(async () => {
      const file = path.join(work, "base.jsonl");
      expect((await runCli(["backup", file], serverEnv(source))).code).toBe(0);
      good = readFileSync(file, "utf8").trimEnd().split("\n");
    });

    async function restoreInto(lines: string[], extraArgs: string[] = [], env = keyEnv) {
      const file = path.join(work, `${randomUUID()}.jsonl`);
      writeFileSync(file, `${lines.join("\n")}\n`);
      const dataDir = freshDir();
      const res = await runCli(["restore", file, ...extraArgs], { DATA_DIR: dataDir, ...env });
      return { res, dataDir };
    }

    async function rowCount(dataDir: string, env = keyEnv): Promise<number> {
      const t = await sqliteApp({ DATA_DIR: dataDir, ...env });
      const { count } = await t.ctx.db
        .selectFrom("pastes")
        .select((eb) => eb.fn.countAll<number>().as("count"))
        .executeTakeFirstOrThrow();
      return Number(count);
    }

    it("a backup cut off before its end marker", async () => {
      const { res, dataDir } = await restoreInto(good.slice(0, -1));
      expect(res.code).toBe(1);
      expect(res.stderr).toContain("The backup is incomplete (no end marker)");
      expect(await rowCount(dataDir)).toBe(0);
    });

    it("a backup whose rows do not match its end marker", async () => {
      const pasteRow = good.findIndex((l) => l.includes("behind a password"));
      const { res, dataDir } = await restoreInto(good.filter((_, i) => i !== pasteRow));
      expect(res.code).toBe(1);
      expect(res.stderr).toContain("pastes should have 3 rows, it has 2");
      expect(await rowCount(dataDir)).toBe(0);
    });

    it("a backup from a newer ClipShare", async () => {
      const header = JSON.parse(good[0]!);
      const newer = { ...header, schema: "9999-future", migrations: [...header.migrations, "9999-future"] };
      const { res, dataDir } = await restoreInto([JSON.stringify(newer), ...good.slice(1)]);
      expect(res.code).toBe(1);
      expect(res.stderr).toContain("The backup comes from a newer ClipShare (schema 9999-future)");
      expect(existsSync(path.join(dataDir, "clipshare.db"))).toBe(false);
    });

    it("a backup made under another SECRET_KEY, unless --allow-key-change", async () => {
      const otherKey = { SECRET_KEY: "another-secret-key-of-at-least-32-characters" };
      const { res, dataDir } = await restoreInto(good, [], otherKey);
      expect(res.code).toBe(1);
      expect(res.stderr).toContain("another SECRET_KEY");
      expect(readdirSync(dataDir)).not.toContain("clipshare.db");
      const allowed = await restoreInto(good, ["--allow-key-change"], otherKey);
      expect(allowed.res.code, allowed.res.stderr).toBe(0);
      expect(await rowCount(allowed.dataDir, otherKey)).toBe(3);
    });
  });

  it("a backup that cannot be written leaves no file behind and exits 1", async () => {
    const dir = path.join(work, "missing-dir");
    const res = await runCli(["backup", path.join(dir, "b.jsonl")], serverEnv(source));
    expect(res.code).toBe(1);
    expect(res.stderr).toContain("Cannot write");
    expect(existsSync(dir)).toBe(false);
  });
});
