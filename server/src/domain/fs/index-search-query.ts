/**
 * The search of the index of mount entries (docs/decisions/0035-mount-index.md,
 * 0080-rare-trigrams-first.md). Name matching is the part that differs between the databases:
 * FTS5 trigram on SQLite, pg_trgm (ILIKE on a GIN index) on PostgreSQL; both are asked for the
 * needle's rarest trigrams only, and the whole needle is checked on what they return. Who may
 * see what is part of the query: per mount, the subtree it may look into, the nested mounts it
 * must leave out and whether links are hidden, as SQL conditions.
 */
import { type Expression, type SqlBool, sql } from "kysely";
import type { Db, Dialect } from "../../db/database";
import type { FsIndexRow } from "../../db/schema";
import { containsPattern, containsPatternText } from "../../db/sql-helpers";
import { type NamePlan, NameSample, type NameSampleTaken, planTerms, trigramsOf } from "./index-name-plan";
import { below, codePoints, type Eb, within } from "./index-paths";

/** The part of one mount a search may look into. */
export interface IndexScope {
  mountId: string;
  /** Mount-relative subtree ("" = the whole mount). */
  prefix: string;
  /** Mount-relative subtrees shadowed by nested mounts. */
  exclude: string[];
  /** A key confined inside the mount sees no links (its driver hides them too). */
  hideLinks: boolean;
}

export interface IndexSearch {
  q: string;
  scopes: IndexScope[];
  type?: "file" | "dir" | undefined;
  minSize?: number | undefined;
  maxSize?: number | undefined;
  modifiedAfter?: string | undefined;
  modifiedBefore?: string | undefined;
  limit: number;
  offset: number;
}

/**
 * Matches a search counts and ranks in one pass at most (their rows held in a materialized
 * table, a few MB); past this the page is a top-N sort and the count a query of its own.
 */
const ONE_PASS_LIMIT = 20_000;

/** Rows read after each random rowid when sampling names on SQLite. */
const SAMPLE_RUN = 8;

/** Printable ASCII: LIKE folds these letters as FTS5 does. */
const ASCII = /^[ -~]*$/;
const ASCII_WORD = /^[a-z0-9]{3}$/;

export class IndexSearchQuery {
  private readonly sample = new NameSample((size) => this.sampleNames(size));

  constructor(
    private readonly db: Db,
    private readonly dialect: Dialect,
  ) {}

  /** The index changed a lot (a crawl ended): the next search plans from a new sample. */
  forgetSample(): void {
    this.sample.forget();
  }

  /**
   * One page of matches, exact names first, then prefixes, then newest; and how many match in
   * all. When the needle's rarest trigram promises few matches, one pass finds them all (at most
   * ONE_PASS_LIMIT, kept in a materialized table) and both page and total are read from it;
   * otherwise the page (a top-N sort) and the count are two queries.
   */
  async run(query: IndexSearch): Promise<{ rows: FsIndexRow[]; total: number }> {
    if (query.scopes.length === 0) return { rows: [], total: 0 };
    const needle = query.q.toLowerCase();
    const plan = await this.planName(query.q);
    const base = this.db
      .selectFrom("fs_index")
      .where((eb) => this.nameMatches(eb, query.q, plan))
      .where((eb) => eb.or(query.scopes.map((scope) => this.inScope(eb, scope))))
      .$if(query.type !== undefined, (qb) => qb.where("type", "=", query.type!))
      .$if(query.minSize !== undefined, (qb) => qb.where("size", ">=", query.minSize!))
      .$if(query.maxSize !== undefined, (qb) => qb.where("size", "<=", query.maxSize!))
      .$if(query.modifiedAfter !== undefined, (qb) => qb.where("mtime", ">=", query.modifiedAfter!))
      .$if(query.modifiedBefore !== undefined, (qb) => qb.where("mtime", "<", query.modifiedBefore!));
    // Exact name, then prefix, then newest (undated last), then path: one list, both queries use it.
    const ranking = sql`case when lower(name) = ${needle} then 0 when substr(lower(name), 1, ${sql.lit(
      codePoints(needle),
    )}) = ${needle} then 1 else 2 end, mtime is null, mtime desc, path`;

    if (plan && plan.expected <= ONE_PASS_LIMIT) {
      const rows = await this.db
        .with(
          (cte) => cte("hits").materialized(),
          () => base.selectAll().limit(ONE_PASS_LIMIT + 1),
        )
        .selectFrom("hits")
        .selectAll()
        .select(sql<number>`(select count(*) from hits)`.as("total"))
        .orderBy(ranking)
        .limit(query.limit)
        .offset(query.offset)
        .execute();
      // No row: none matched, or the page lies past the last match (then the count below says how many).
      const total = rows.length > 0 ? Number(rows[0]!.total) : query.offset === 0 ? 0 : null;
      if (total !== null && total <= ONE_PASS_LIMIT)
        return { rows: rows.map(({ total: _, ...row }) => row), total };
    }

    const [rows, count] = await Promise.all([
      base.selectAll().orderBy(ranking).limit(query.limit).offset(query.offset).execute(),
      base.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.n) };
  }

  /**
   * Which of the needle's trigrams to ask the index for (index-name-plan.ts); null = the whole
   * needle, as each database matches it. FTS5's trigram tokenizer sees every character; pg_trgm
   * only letters and digits (its words, padded at their ends), so only trigrams of three ASCII
   * letters or digits are asked of it alone: '%abc%' reaches exactly the trigram "abc".
   */
  private async planName(q: string): Promise<NamePlan | null> {
    if (codePoints(q) < 3) return null;
    // LIKE folds ASCII letters only, as FTS5 folds them; other needles keep FTS5's own phrase match.
    if (this.dialect === "sqlite" && !ASCII.test(q)) return null;
    const trigrams = trigramsOf(q);
    const askable = this.dialect === "postgres" ? trigrams.filter((t) => ASCII_WORD.test(t)) : trigrams;
    if (askable.length === 0) return null;
    return planTerms(askable, await this.sample.current());
  }

  /**
   * Names picked at random from the whole index, and about how many entries it holds.
   * PostgreSQL: random pages (TABLESAMPLE SYSTEM), sized from the row count ANALYZE recorded.
   * SQLite: short runs of rows from random rowids between the lowest and the highest (each run
   * one seek; rowids are dense enough that their span estimates the count).
   */
  private async sampleNames(size: number): Promise<NameSampleTaken> {
    if (this.dialect === "postgres") {
      const stats = await sql<{
        n: number;
      }>`select reltuples::bigint as n from pg_class where oid = 'fs_index'::regclass`.execute(this.db);
      const estimated = Number(stats.rows[0]?.n ?? -1);
      // Twice the pages the sample needs (rows cluster by folder within a page), at least 0.01 %.
      const percent = estimated > 0 ? Math.min(100, Math.max(0.01, (200 * size) / estimated)) : 100;
      const picked = await sql<{ name: string }>`select name from fs_index tablesample system (${sql.lit(
        percent,
      )}) limit ${4 * size}`.execute(this.db);
      return { names: picked.rows.map((r) => r.name), rows: Math.max(estimated, picked.rows.length) };
    }
    // Two scalar subqueries: SQLite answers min() and max() of the rowid with one seek each,
    // but both in one select with a scan of the whole table.
    const range = await sql<{ lo: number | null; hi: number | null }>`select
      (select min(id) from fs_index) as lo, (select max(id) from fs_index) as hi`.execute(this.db);
    const { lo, hi } = range.rows[0] ?? { lo: null, hi: null };
    if (lo === null || hi === null) return { names: [], rows: 0 };
    const span = Number(hi) - Number(lo) + 1;
    const names: string[] = [];
    for (let run = 0; run < size / SAMPLE_RUN && names.length < Math.min(size, span); run++) {
      const rows = await this.db
        .selectFrom("fs_index")
        .select("name")
        .where("id", ">=", Number(lo) + Math.floor(Math.random() * span))
        .orderBy("id")
        .limit(SAMPLE_RUN)
        .execute();
      for (const r of rows) names.push(r.name);
    }
    return { names, rows: span };
  }

  private nameMatches(eb: Eb, q: string, plan: NamePlan | null): Expression<SqlBool> {
    const pattern = containsPattern(q);
    if (this.dialect === "postgres") {
      if (!plan) return eb("name", "ilike", pattern);
      // The terms use the trigram index; the whole needle is checked on lower(name), which the
      // index does not cover (ILIKE compares the lower case of both sides too).
      return eb.and([
        ...plan.terms.map((t) => eb("name", "ilike", containsPattern(t))),
        sql<SqlBool>`lower(name) like lower(${containsPatternText(q)}) escape '\\'`,
      ]);
    }
    // The trigram index answers needles of three characters or more; shorter ones scan the names.
    if (codePoints(q) < 3) return eb("name", "like", pattern);
    const phrase = (text: string) => `"${text.replace(/"/g, '""')}"`;
    const match = plan ? plan.terms.map(phrase).join(" AND ") : phrase(q);
    const found = eb(
      "id",
      "in",
      sql<number>`(select rowid from fs_index_fts where fs_index_fts match ${match})`,
    );
    return plan ? eb.and([found, eb("name", "like", pattern)]) : found;
  }

  private inScope(eb: Eb, scope: IndexScope): Expression<SqlBool> {
    // On SQLite the unary + keeps the planner from walking a whole mount through the
    // (mount_id, path) index instead of starting from the few rows the name match finds.
    const mount = this.dialect === "sqlite" ? sql<string>`+mount_id` : sql<string>`mount_id`;
    const conditions: Expression<SqlBool>[] = [eb(mount, "=", scope.mountId)];
    if (scope.prefix !== "") conditions.push(below(eb, scope.prefix));
    for (const nested of scope.exclude) conditions.push(eb.not(within(eb, nested)));
    if (scope.hideLinks) conditions.push(eb("is_link", "=", 0));
    return eb.and(conditions);
  }
}
