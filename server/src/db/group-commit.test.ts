import SqliteDatabase from "better-sqlite3";
import { Kysely, SqliteDialect, sql } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Db } from "./database";
import { groupCommit } from "./group-commit";

let db: Db;
let sqlite: SqliteDatabase.Database;

beforeEach(async () => {
  sqlite = new SqliteDatabase(":memory:");
  db = new Kysely({ dialect: new SqliteDialect({ database: sqlite }) }) as unknown as Db;
  await sql`create table t (k text primary key, n integer not null)`.execute(db);
});

afterEach(async () => {
  await db.destroy();
});

describe("group commit on SQLite", () => {
  it("runs concurrent writes in one transaction; a failing one rejects only its own caller", async () => {
    let inTransaction = 0;
    const insert = groupCommit(db, async (k: string, on) => {
      if (sqlite.inTransaction) inTransaction++;
      await on.executeQuery(sql`insert into t (k, n) values (${k}, 1)`.compile(db));
      return k;
    });
    const results = await Promise.allSettled(["a", "b", "a", "c"].map((k) => insert(k)));
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "fulfilled", "rejected", "fulfilled"]);
    expect(inTransaction).toBe(4);
    const rows = await sql<{ k: string }>`select k from t order by k`.execute(db);
    expect(rows.rows.map((r) => r.k)).toEqual(["a", "b", "c"]);
  });

  it("keeps each write's conditions: a limit of N lets exactly N of many concurrent counts through", async () => {
    await sql`insert into t (k, n) values ('views', 0)`.execute(db);
    const count = groupCommit(db, async (_: null, on) => {
      const r = await on.executeQuery(
        sql<{ n: number }>`update t set n = n + 1 where k = 'views' and n < 7 returning n`.compile(db),
      );
      return r.rows[0]?.n ?? null;
    });
    const results = await Promise.all(Array.from({ length: 20 }, () => count(null)));
    expect(results.filter((n) => n !== null).sort((a, b) => a! - b!)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(results.filter((n) => n === null)).toHaveLength(13);
  });
});
