import SqliteDatabase from "better-sqlite3";
import { Kysely, SqliteDialect, sql } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type Db, openDatabase } from "./database";
import { groupCommit } from "./group-commit";
import { preparedQuery } from "./prepared-query";

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

describe("group commit of a prepared query on a database opened by ClipShare", () => {
  let opened: Db;
  beforeEach(async () => {
    opened = openDatabase({ dialect: "sqlite", file: ":memory:" });
    await sql`create table t (k text primary key, n integer not null)`.execute(opened);
    await sql`insert into t (k, n) values ('views', 0)`.execute(opened);
  });
  afterEach(async () => {
    await opened.destroy();
  });

  const counter = () =>
    groupCommit(
      opened,
      preparedQuery<{ limit: number }, { n: number }>(opened as unknown as Kysely<never>, (param) =>
        (opened as unknown as Kysely<{ t: { k: string; n: number } }>)
          .updateTable("t")
          .set((eb) => ({ n: eb("n", "+", 1) }))
          .where("k", "=", "views")
          .where("n", "<", param("limit"))
          .returning("n"),
      ) as never,
    ) as (values: { limit: number }) => Promise<{ n: number }[]>;

  it("counts exactly up to the limit under concurrency, each caller getting its own row", async () => {
    const count = counter();
    const results = await Promise.all(Array.from({ length: 20 }, () => count({ limit: 7 })));
    const granted = results.filter((rows) => rows.length === 1).map((rows) => rows[0]!.n);
    expect(granted.sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(results.filter((rows) => rows.length === 0)).toHaveLength(13);
  });

  it("leaves the cached statement giving row objects to Kysely's queries of the same SQL", async () => {
    const query = preparedQuery<{ limit: number }, { n: number }>(
      opened as unknown as Kysely<never>,
      (param) =>
        (opened as unknown as Kysely<{ t: { k: string; n: number } }>)
          .updateTable("t")
          .set((eb) => ({ n: eb("n", "+", 1) }))
          .where("k", "=", "views")
          .where("n", "<", param("limit"))
          .returning(["k", "n"]),
    );
    const count = groupCommit(opened, query as never) as (values: { limit: number }) => Promise<unknown[]>;
    expect(await count({ limit: 10 })).toEqual([{ k: "views", n: 1 }]);
    // The same SQL through Kysely's executor takes the same prepared statement from the cache.
    expect(await query({ limit: 10 })).toEqual([{ k: "views", n: 2 }]);
    expect(await count({ limit: 10 })).toEqual([{ k: "views", n: 3 }]);
  });

  it("keeps the statement journal of each RETURNING write in memory", async () => {
    // On disk, each write of a batch took and gave back a 64 KiB block (two brk calls per view).
    const { rows } = await sql<{ temp_store: number }>`pragma temp_store`.execute(opened);
    expect(rows).toEqual([{ temp_store: 2 }]);
  });

  it("waits for a transaction another caller holds open instead of writing into it", async () => {
    const count = counter();
    let counted: Promise<unknown> | undefined;
    await expect(
      opened.transaction().execute(async (trx) => {
        await sql`update t set n = 100 where k = 'views'`.execute(trx);
        counted = count({ limit: 1000 });
        await new Promise((r) => setTimeout(r, 20));
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    // The rolled-back write is gone and the count ran after it, on the committed value.
    expect(await counted).toEqual([{ n: 1 }]);
  });
});
