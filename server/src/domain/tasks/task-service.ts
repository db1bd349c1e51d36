/**
 * Long-running work (copy, delete, upload, download tasks) stored in the `tasks` table, so it is
 * visible to its owner, survives restarts and is shared between instances:
 * - a pending task is claimed by exactly one instance (one conditional UPDATE;
 *   on PostgreSQL the candidate row is picked with FOR UPDATE SKIP LOCKED so
 *   concurrent claimers never wait on or take the same row);
 * - a running task's updated_at is its heartbeat; a task whose heartbeat is
 *   stale was abandoned by a crashed instance and is resumed (copy, delete)
 *   or marked failed (uploads, which cannot be resumed) — never left hanging.
 */
import { randomUUID } from "node:crypto";
import type { FsTask, TaskStatus, TaskType } from "@clipshare/shared";
import { isCreator, ownership, whereOwned } from "../../auth/creator";
import type { Principal } from "../../auth/principal";
import type { Db, Dialect } from "../../db/database";
import { nowIso } from "../../db/database";
import { preparedQuery } from "../../db/prepared-query";
import type { TaskRow } from "../../db/schema";
import { newestFirstPage } from "../../db/sql-helpers";
import { conflict, notFound } from "../../errors";

/** Types whose work can start over after an interruption (their steps are idempotent or skip what is done). */
export const RESUMABLE_TYPES: ReadonlySet<string> = new Set<TaskType>(["copy", "delete", "index"]);
/** Types the owner's task list leaves out: work the server does for itself (their logs are elsewhere). */
const INTERNAL_TYPES: TaskType[] = ["notify"];
export const FINISHED: ReadonlySet<string> = new Set<TaskStatus>([
  "completed",
  "failed",
  "cancelled",
  "partial",
]);

export interface TaskProgress {
  total_items?: number;
  processed_items?: number;
  failed_items?: number;
  skipped_items?: number;
  total_bytes?: number;
  processed_bytes?: number;
  current_file?: string | null;
  result?: unknown;
}

export function presentTask(row: TaskRow): FsTask {
  const parse = (text: string | null) => {
    if (text === null) return null;
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return null;
    }
  };
  const percent =
    row.total_bytes > 0
      ? Math.min(100, Math.floor((row.processed_bytes / row.total_bytes) * 100))
      : row.total_items > 0
        ? Math.min(
            100,
            Math.floor(
              ((row.processed_items + row.failed_items + row.skipped_items) / row.total_items) * 100,
            ),
          )
        : FINISHED.has(row.status)
          ? 100
          : 0;
  return {
    id: row.id,
    type: row.type as TaskType,
    status: row.status as TaskStatus,
    progress: percent,
    total_items: row.total_items,
    processed_items: row.processed_items,
    failed_items: row.failed_items,
    skipped_items: row.skipped_items,
    total_bytes: row.total_bytes,
    processed_bytes: row.processed_bytes,
    current_file: row.current_file,
    error: row.error,
    cancel_requested: row.cancel_requested === 1,
    attempts: row.attempts,
    notice: row.notice,
    payload: parse(row.payload),
    result: parse(row.result),
    created_by: row.created_by,
    created_at: row.created_at,
    updated_at: row.updated_at,
    started_at: row.started_at,
    completed_at: row.completed_at,
  };
}

export class TaskService {
  /** The queries every instance runs on its timers, busy or idle: compiled once, on first use. */
  private timed: ReturnType<TaskService["compileTimedQueries"]> | undefined;

  constructor(
    private readonly db: Db,
    private readonly dialect: Dialect,
    readonly instanceId: string,
  ) {}

  private compileTimedQueries() {
    return {
      claimNext: preparedQuery<{ now: string }, TaskRow>(this.db, (param) => {
        let pick = this.db
          .selectFrom("tasks")
          .select("id")
          .where("status", "=", "pending")
          // A retry waits out its backoff.
          .where((eb) => eb.or([eb("run_after", "is", null), eb("run_after", "<=", param("now"))]))
          .orderBy("created_at")
          .orderBy("id")
          .limit(1);
        if (this.dialect === "postgres") pick = pick.forUpdate().skipLocked();
        return this.db
          .updateTable("tasks")
          .set((eb) => ({
            status: "running",
            claimed_by: this.instanceId,
            claimed_at: param("now"),
            updated_at: param("now"),
            attempts: eb("attempts", "+", 1),
          }))
          .where("id", "=", (eb) => eb.selectFrom(pick.as("next")).select("next.id"))
          .where("status", "=", "pending")
          .returningAll();
      }),
      heartbeat: preparedQuery<{ now: string }, never>(this.db, (param) =>
        this.db
          .updateTable("tasks")
          .set({ updated_at: param("now") })
          .where("claimed_by", "=", this.instanceId)
          .where("status", "=", "running"),
      ),
      staleRunning: preparedQuery<{ cutoff: string }, Pick<TaskRow, "id" | "type" | "updated_at">>(
        this.db,
        (param) =>
          this.db
            .selectFrom("tasks")
            .select(["id", "type", "updated_at"])
            .where("status", "=", "running")
            .where("updated_at", "<=", param("cutoff"))
            .where((eb) => eb.or([eb("claimed_by", "is", null), eb("claimed_by", "!=", this.instanceId)])),
      ),
    };
  }

  private get timedQueries() {
    this.timed ??= this.compileTimedQueries();
    return this.timed;
  }

  /** A queued task for the runners; with `runAfter`, not claimed before then. */
  async create(
    principal: Principal,
    type: TaskType,
    payload: unknown,
    totals: TaskProgress = {},
    id: string = randomUUID(),
    runAfter: Date | null = null,
  ): Promise<TaskRow> {
    return this.insert(principal, type, payload, "pending", totals, id, runAfter);
  }

  /** A task run by the caller itself (an upload streaming through this request), claimed from the start. */
  async start(
    principal: Principal,
    type: TaskType,
    payload: unknown,
    totals: TaskProgress = {},
  ): Promise<TaskRow> {
    return this.insert(principal, type, payload, "running", totals);
  }

  async list(principal: Principal, query: { limit: number; offset: number; status?: string | undefined }) {
    // Deliveries of notifications are the server's own errands, listed in their own log.
    let base = this.db.selectFrom("tasks").where("type", "not in", INTERNAL_TYPES);
    base = whereOwned(base, null, principal);
    const { rows, total } = await newestFirstPage(base, query);
    return { items: rows.map(presentTask), total };
  }

  async get(principal: Principal, id: string): Promise<TaskRow> {
    const row = await this.find(id);
    if (!row || !isCreator(principal, row)) throw notFound("Task does not exist", "task_not_found");
    return row;
  }

  async find(id: string): Promise<TaskRow | undefined> {
    return this.db.selectFrom("tasks").selectAll().where("id", "=", id).executeTakeFirst();
  }

  /** Pending: cancelled at once. Running: flagged; the runner stops it at the next step. */
  async cancel(principal: Principal, id: string): Promise<TaskRow> {
    const row = await this.get(principal, id);
    if (FINISHED.has(row.status)) throw conflict("Task has already finished", "task_finished");
    const now = nowIso();
    await this.db
      .updateTable("tasks")
      .set({ status: "cancelled", completed_at: now, updated_at: now, claimed_by: null, cancel_requested: 1 })
      .where("id", "=", id)
      .where("status", "=", "pending")
      .execute();
    await this.db
      .updateTable("tasks")
      .set({ cancel_requested: 1, updated_at: now })
      .where("id", "=", id)
      .where("status", "=", "running")
      .execute();
    return (await this.find(id))!;
  }

  async delete(principal: Principal, id: string): Promise<void> {
    const row = await this.get(principal, id);
    if (!FINISHED.has(row.status)) throw conflict("Task is still running; cancel it first", "task_running");
    await this.db.deleteFrom("tasks").where("id", "=", id).execute();
  }

  /** Takes the oldest pending task for this instance, or null. Never hands one task to two claimers. */
  async claimNext(): Promise<TaskRow | null> {
    const now = nowIso();
    const [claimed] = await this.timedQueries.claimNext({ now });
    if (claimed && !claimed.started_at) {
      await this.db.updateTable("tasks").set({ started_at: now }).where("id", "=", claimed.id).execute();
      claimed.started_at = now;
    }
    return claimed ?? null;
  }

  /** Writes progress (and the heartbeat); returns whether someone asked to cancel. */
  async progress(id: string, patch: TaskProgress): Promise<{ cancelRequested: boolean }> {
    const row = await this.db
      .updateTable("tasks")
      .set({ ...toColumns(patch), updated_at: nowIso() })
      .where("id", "=", id)
      .where("claimed_by", "=", this.instanceId)
      .returning(["cancel_requested", "status"])
      .executeTakeFirst();
    // Lost the claim (another instance recovered it after a long stall): stop as if cancelled.
    return { cancelRequested: !row || row.cancel_requested === 1 || row.status !== "running" };
  }

  async finish(
    id: string,
    status: TaskStatus,
    patch: TaskProgress & { error?: string | null } = {},
  ): Promise<void> {
    const now = nowIso();
    const { error, ...rest } = patch;
    await this.db
      .updateTable("tasks")
      .set({
        ...toColumns(rest),
        ...(error !== undefined ? { error } : {}),
        status,
        claimed_by: null,
        updated_at: now,
        completed_at: now,
      })
      .where("id", "=", id)
      .where("claimed_by", "=", this.instanceId)
      .execute();
  }

  /** Hands a running task back to the queue (graceful shutdown): another instance, or the next start, resumes it. */
  async release(id: string, patch: TaskProgress = {}): Promise<void> {
    const now = nowIso();
    await this.db
      .updateTable("tasks")
      .set({
        ...toColumns(patch),
        status: "pending",
        claimed_by: null,
        updated_at: now,
        notice: `Paused at ${now} while the server restarted; it continues on the next start`,
      })
      .where("id", "=", id)
      .where("claimed_by", "=", this.instanceId)
      .where("status", "=", "running")
      .execute();
  }

  /** Heartbeat for every running task this instance holds. */
  async heartbeat(): Promise<void> {
    await this.timedQueries.heartbeat({ now: nowIso() });
  }

  /**
   * Running tasks not heard of for `staleMs` belong to a dead instance:
   * resumable ones go back to pending (counted in result.resumed), others fail
   * with a message saying why.
   */
  async recoverStale(staleMs: number): Promise<{ resumed: number; failed: number }> {
    const cutoff = nowIso(new Date(Date.now() - staleMs));
    const stale = await this.timedQueries.staleRunning({ cutoff });
    let resumed = 0;
    let failed = 0;
    const now = nowIso();
    for (const task of stale) {
      const base = this.db
        .updateTable("tasks")
        .where("id", "=", task.id)
        .where("status", "=", "running")
        .where("updated_at", "=", task.updated_at);
      if (RESUMABLE_TYPES.has(task.type)) {
        const result = await base
          .set({
            status: "pending",
            claimed_by: null,
            updated_at: now,
            notice: `Interrupted at ${now} (the server stopped); resumed`,
          })
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) > 0) resumed++;
      } else {
        const result = await base
          .set({
            status: "failed",
            claimed_by: null,
            updated_at: now,
            completed_at: now,
            error: "Interrupted by a server restart before it finished",
            notice: `Interrupted at ${now} (the server stopped); cannot be resumed`,
          })
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) > 0) failed++;
      }
    }
    return { resumed, failed };
  }

  private async insert(
    principal: Principal,
    type: TaskType,
    payload: unknown,
    status: "pending" | "running",
    totals: TaskProgress,
    id: string = randomUUID(),
    runAfter: Date | null = null,
  ): Promise<TaskRow> {
    const now = nowIso();
    const row: TaskRow = {
      id,
      type,
      status,
      ...ownership(principal),
      payload: JSON.stringify(payload),
      result: null,
      total_items: totals.total_items ?? 0,
      processed_items: 0,
      failed_items: 0,
      skipped_items: 0,
      total_bytes: totals.total_bytes ?? 0,
      processed_bytes: 0,
      current_file: null,
      error: null,
      claimed_by: status === "running" ? this.instanceId : null,
      claimed_at: status === "running" ? now : null,
      cancel_requested: 0,
      attempts: status === "running" ? 1 : 0,
      notice: null,
      created_at: now,
      updated_at: now,
      started_at: status === "running" ? now : null,
      completed_at: null,
      run_after: runAfter ? nowIso(runAfter) : null,
    };
    await this.db.insertInto("tasks").values(row).execute();
    return row;
  }
}

function toColumns(patch: TaskProgress) {
  const { result, ...rest } = patch;
  return { ...rest, ...(result !== undefined ? { result: JSON.stringify(result) } : {}) };
}
