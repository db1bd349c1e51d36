/**
 * Keeps the index of mount entries current and answers what the admin screen
 * shows (docs/decisions/0035-mount-index.md, 0036-index-crawl.md):
 * - every write through the VFS lands here (VirtualFileSystem.invalidate and
 *   rename), in the same request: the changed entry is read back from storage
 *   and stored, a removed one dropped with its subtree, a move moves the rows;
 * - a crawl (task type `index`) reads the whole mount page by page, in
 *   batches, and finally sweeps what it did not see. It records where it is in
 *   the task's result, so an interrupted crawl resumes; the `task_id` of the
 *   mount's state row, set by one conditional UPDATE, keeps it to one crawl per
 *   mount across instances;
 * - mounts with an interval are crawled on schedule by whichever instance
 *   gets there first.
 */
import { randomUUID } from "node:crypto";
import type { FsTask, MountIndexStatus, MountIndexUsage } from "@clipshare/shared";
import { requireAdmin } from "../../auth/policy";
import type { Principal } from "../../auth/principal";
import type { Db } from "../../db/database";
import { nowIso } from "../../db/database";
import type { MountIndexStateRow } from "../../db/schema";
import { conflict, notFound } from "../../errors";
import type { Logger } from "../../logger";
import type { StorageEntry } from "../../storage/types";
import { resolveCreator } from "../tasks/creator";
import type { TaskHandler, TaskRun } from "../tasks/task-runner";
import { FINISHED, presentTask, type TaskService } from "../tasks/task-service";
import type { FsCaches } from "./fs-caches";
import { type FolderTotals, NO_TOTALS, shareOf } from "./index-folder-totals";
import { type IndexFilter, indexFilter } from "./index-globs";
import type { IndexEntry, IndexRepository } from "./index-repository";
import type { ActiveMount, MountTable, ResolvedPath } from "./mount-table";

export interface CrawlPayload {
  mountId: string;
  /** Empty the index first instead of refreshing it in place. */
  rebuild: boolean;
  /** Entries per second at most (0 = as fast as storage answers). */
  maxRate: number;
}

/** Where a crawl is, saved in its task's result so an interrupted crawl goes on from there. */
interface CrawlState {
  gen: number;
  /** Folders still to read (mount-relative); the last is read next. */
  pending: string[];
  entries: number;
  startedAt: string;
}

const PAGE = 1000;
const SCHEDULE_MS = 60_000;
const USAGE_TOP = 20;

export const toIndexEntry = (entry: StorageEntry): IndexEntry => ({
  path: entry.path,
  size: entry.isDirectory ? 0 : entry.size,
  mtime: entry.modified ? entry.modified.toISOString() : null,
  type: entry.isDirectory ? "dir" : "file",
  isLink: entry.isLink === true,
});

const filterOf = (mount: ActiveMount): IndexFilter =>
  indexFilter(mount.row.index_include, mount.row.index_exclude);

/** "a/b/c" → ["a", "a/b"]. */
function ancestorsOf(path: string): string[] {
  const parts = path.split("/");
  return parts.slice(0, -1).map((_, i) => parts.slice(0, i + 1).join("/"));
}

export class IndexService {
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly db: Db,
    private readonly table: MountTable,
    private readonly tasks: TaskService,
    private readonly caches: FsCaches,
    readonly repo: IndexRepository,
    private readonly log: Logger,
  ) {}

  // ---- writes through ClipShare -------------------------------------------

  /** After a write at `target` (tree: below it too): the index shows storage as it is now. */
  async changed(target: ResolvedPath, tree: boolean): Promise<void> {
    if (target.row.index_enabled !== 1 || target.subPath === "") return;
    await this.guard(target.row.id, async () => {
      const gen = await this.generation(target.row.id);
      await this.syncPath(target, gen, tree);
    });
  }

  /** A rename inside one storage: rows move with the entry (a move between mounts re-reads the target). */
  async moved(source: ResolvedPath, target: ResolvedPath): Promise<void> {
    if (source.row.id !== target.row.id) {
      if (source.row.index_enabled === 1)
        await this.guard(source.row.id, () => this.repo.removeTree(source.row.id, source.subPath));
      await this.changed(target, true);
      return;
    }
    if (source.row.index_enabled !== 1) return;
    await this.guard(source.row.id, async () => {
      await this.repo.move(source.row.id, source.subPath, target.subPath);
      // The moved entry itself: a new name may fall under another include/exclude rule.
      await this.syncPath(target, await this.generation(target.row.id), false);
    });
  }

  /** Bytes and counts below each subfolder of the folder at `target`; null without a complete index. */
  async childTotals(target: ResolvedPath): Promise<Map<string, FolderTotals> | null> {
    if (!(await this.isComplete(target))) return null;
    return this.repo.childTotals(target.row.id, target.subPath);
  }

  /** Bytes and counts below the folder at `target` itself; null without a complete index. */
  async totals(target: ResolvedPath): Promise<FolderTotals | null> {
    if (!(await this.isComplete(target))) return null;
    return (await this.repo.folderTotals(target.row.id, [target.subPath])).get(target.subPath) ?? null;
  }

  private async isComplete(target: ResolvedPath): Promise<boolean> {
    if (target.row.index_enabled !== 1) return false;
    const state = await this.db
      .selectFrom("mount_index_state")
      .select("complete")
      .where("mount_id", "=", target.row.id)
      .executeTakeFirst();
    return state?.complete === 1;
  }

  /** Mounts whose index search may use: indexing on and a full crawl behind it. */
  async searchable(): Promise<Set<string>> {
    const rows = await this.db
      .selectFrom("mount_index_state")
      .innerJoin("mounts", "mounts.id", "mount_index_state.mount_id")
      .select("mount_index_state.mount_id")
      .where("mount_index_state.complete", "=", 1)
      .where("mounts.index_enabled", "=", 1)
      .execute();
    return new Set(rows.map((r) => r.mount_id));
  }

  // ---- crawls --------------------------------------------------------------

  async statuses(principal: Principal): Promise<MountIndexStatus[]> {
    requireAdmin(principal);
    const rows = await this.db
      .selectFrom("mounts")
      .leftJoin("mount_index_state", "mount_index_state.mount_id", "mounts.id")
      .leftJoin("tasks", "tasks.id", "mount_index_state.task_id")
      .select([
        "mounts.id",
        "mounts.name",
        "mounts.mount_path",
        "mounts.storage_type",
        "mounts.index_enabled",
        "mounts.index_interval",
        "mount_index_state.complete",
        "mount_index_state.entries",
        "mount_index_state.last_started",
        "mount_index_state.last_finished",
        "mount_index_state.last_duration_ms",
        "mount_index_state.last_error",
        "mount_index_state.task_id",
      ])
      .orderBy("mounts.sort_order")
      .orderBy("mounts.name")
      .execute();
    const taskIds = rows.map((r) => r.task_id).filter((id): id is string => id !== null);
    const tasks =
      taskIds.length === 0
        ? []
        : await this.db.selectFrom("tasks").selectAll().where("id", "in", taskIds).execute();
    const byId = new Map(tasks.map((t) => [t.id, presentTask(t)]));
    return rows.map((r) => {
      const task = r.task_id ? (byId.get(r.task_id) ?? null) : null;
      return {
        mount_id: r.id,
        mount_name: r.name,
        mount_path: r.mount_path,
        storage_type: r.storage_type,
        index_enabled: r.index_enabled === 1,
        index_interval: r.index_interval,
        complete: r.complete === 1,
        entries: Number(task && !FINISHED.has(task.status) ? task.processed_items : (r.entries ?? 0)),
        last_started: r.last_started ?? null,
        last_finished: r.last_finished ?? null,
        last_duration_ms: r.last_duration_ms === null ? null : Number(r.last_duration_ms),
        last_error: r.last_error ?? null,
        task,
      };
    });
  }

  /**
   * Queues a crawl of one mount, or returns the one already queued or running
   * (here or on another instance): the mount's state row names its owner.
   */
  async startCrawl(
    principal: Principal,
    mountId: string,
    options: { rebuild?: boolean; maxRate?: number } = {},
  ): Promise<FsTask> {
    requireAdmin(principal);
    const mount = await this.table.byId(mountId);
    if (!mount) throw notFound("Mount does not exist", "mount_not_found");
    if (mount.row.index_enabled !== 1)
      throw conflict("Indexing is off for this mount; turn it on first", "index_disabled");
    await this.ensureState(mountId);
    for (let attempt = 0; attempt < 3; attempt++) {
      const state = await this.state(mountId);
      if (state.task_id) {
        const owner = await this.tasks.find(state.task_id);
        if (owner && !FINISHED.has(owner.status)) return presentTask(owner);
        // The owner ended without saying so (its instance died): free the mount.
        await this.releaseMount(mountId, state.task_id);
        continue;
      }
      const id = randomUUID();
      const claimed = await this.db
        .updateTable("mount_index_state")
        .set({ task_id: id })
        .where("mount_id", "=", mountId)
        .where("task_id", "is", null)
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) !== 1) continue;
      const payload: CrawlPayload = {
        mountId,
        rebuild: options.rebuild ?? false,
        maxRate: options.maxRate ?? 0,
      };
      try {
        const row = await this.tasks.create(principal, "index", payload, {}, id);
        await this.caches.tasksQueued();
        return presentTask(row);
      } catch (e) {
        await this.releaseMount(mountId, id);
        throw e;
      }
    }
    throw conflict("Another crawl of this mount is starting; try again", "index_busy");
  }

  /** Where a mount's bytes are: its total, largest top-level folders and largest files. */
  async usage(principal: Principal, mountId: string): Promise<MountIndexUsage> {
    requireAdmin(principal);
    const mount = await this.table.byId(mountId);
    if (!mount) throw notFound("Mount does not exist", "mount_not_found");
    const [totals, largestFolders, files] = await Promise.all([
      this.repo.folderTotals(mountId, [""]),
      this.repo.largestFolders(mountId, USAGE_TOP),
      this.repo.largestFiles(mountId, USAGE_TOP),
    ]);
    return {
      mount_id: mountId,
      total: { path: "", ...totals.get("")! },
      largestFolders,
      largestFiles: files.map((f) => ({ path: f.path, size: Number(f.size), modified: f.mtime })),
    };
  }

  /** Cancels the mount's crawl, if one is queued or running. */
  async stopCrawl(principal: Principal, mountId: string): Promise<FsTask | null> {
    requireAdmin(principal);
    const state = await this.db
      .selectFrom("mount_index_state")
      .select("task_id")
      .where("mount_id", "=", mountId)
      .executeTakeFirst();
    if (!state?.task_id) return null;
    const task = await this.tasks.find(state.task_id);
    if (!task || FINISHED.has(task.status)) return task ? presentTask(task) : null;
    return presentTask(await this.tasks.cancel(principal, task.id));
  }

  /** The `index` task handler. */
  crawlHandler(): TaskHandler {
    return (run) => this.crawl(run);
  }

  /** Crawls mounts whose interval has passed; every instance runs this, the claim keeps it to one crawl. */
  startSchedule(): void {
    this.timer = setInterval(() => {
      this.runSchedule().catch((err) => this.log.warn({ err }, "Scheduling index crawls failed"));
    }, SCHEDULE_MS);
    this.timer.unref();
  }

  stopSchedule(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  async runSchedule(now = Date.now()): Promise<void> {
    for (const mount of await this.table.active()) {
      const { index_enabled, index_interval, id, created_by } = mount.row;
      if (index_enabled !== 1 || index_interval <= 0) continue;
      const state = await this.db
        .selectFrom("mount_index_state")
        .selectAll()
        .where("mount_id", "=", id)
        .executeTakeFirst();
      if (state?.task_id) continue;
      const last = state?.last_finished ? Date.parse(state.last_finished) : 0;
      if (now - last < index_interval * 60_000) continue;
      const creator = await resolveCreator(this.db, created_by);
      if (creator?.kind !== "admin") continue;
      await this.startCrawl(creator, id);
    }
  }

  private async crawl(run: TaskRun) {
    const payload = run.payload as CrawlPayload;
    const mountId = payload.mountId;
    const state = await this.state(mountId).catch(() => null);
    if (state?.task_id !== run.task.id)
      return { status: "failed" as const, error: "Another crawl owns this mount" };
    const started = Date.now();
    try {
      const mount = await this.table.byId(mountId);
      if (mount?.row.index_enabled !== 1) throw new Error("The mount is gone or no longer indexed");
      const crawl =
        (run.previous as { crawl?: CrawlState } | null)?.crawl ?? (await this.begin(mountId, payload));
      await this.walk(run, mount, crawl, payload.maxRate);
      const entries = await this.repo.sweep(mountId, crawl.gen);
      const finished = nowIso();
      await this.db
        .updateTable("mount_index_state")
        .set({
          complete: 1,
          entries,
          task_id: null,
          last_finished: finished,
          last_duration_ms: Date.parse(finished) - Date.parse(crawl.startedAt),
          last_error: null,
        })
        .where("mount_id", "=", mountId)
        .where("task_id", "=", run.task.id)
        .execute();
      await this.caches.invalidate(mountId, "", true);
      await run.progress(
        { processed_items: crawl.entries, total_items: crawl.entries, current_file: null },
        true,
      );
      return { status: "completed" as const };
    } catch (e) {
      // Handed back to the queue at shutdown: the mount stays claimed for the resumed run.
      if (run.signal.reason !== "shutdown") {
        const cancelled = run.signal.reason === "cancelled";
        await this.db
          .updateTable("mount_index_state")
          .set({
            task_id: null,
            last_error: cancelled ? "Stopped" : e instanceof Error ? e.message : String(e),
            last_duration_ms: Date.now() - started,
          })
          .where("mount_id", "=", mountId)
          .where("task_id", "=", run.task.id)
          .execute();
      }
      throw e;
    }
  }

  /** A new crawl: the next generation (writes meanwhile carry it too, so the sweep keeps them). */
  private async begin(mountId: string, payload: CrawlPayload): Promise<CrawlState> {
    if (payload.rebuild) {
      await this.repo.clear(mountId);
      await this.db
        .updateTable("mount_index_state")
        .set({ complete: 0, entries: 0 })
        .where("mount_id", "=", mountId)
        .execute();
    }
    const startedAt = nowIso();
    const row = await this.db
      .updateTable("mount_index_state")
      .set((eb) => ({ generation: eb("generation", "+", 1), last_started: startedAt, last_error: null }))
      .where("mount_id", "=", mountId)
      .returning("generation")
      .executeTakeFirstOrThrow();
    return { gen: row.generation, pending: [""], entries: 0, startedAt };
  }

  /**
   * Reads folders depth-first, one page in memory at a time, storing each page as one batch; a
   * folder's figures (what lies directly in it) are stored once it has been read whole.
   */
  private async walk(run: TaskRun, mount: ActiveMount, crawl: CrawlState, maxRate: number) {
    const view = this.table.driverFor(mount);
    const filter = filterOf(mount);
    const mountId = mount.row.id;
    while (crawl.pending.length > 0) {
      const dir = crawl.pending[crawl.pending.length - 1]!;
      const subdirs: string[] = [];
      const inDir = new FolderFigures();
      let cursor: string | null = null;
      do {
        run.signal.throwIfAborted();
        const pageStarted = Date.now();
        const page = await view.list(dir, { cursor, limit: PAGE });
        const batch: IndexEntry[] = [];
        for (const entry of page.entries) {
          if (!filter.admits(entry.path, entry.isDirectory)) continue;
          batch.push(toIndexEntry(entry));
          // A linked folder is listed, not entered: a link to an ancestor would never end.
          if (entry.isDirectory && !entry.isLink) subdirs.push(entry.path);
        }
        await this.repo.upsert(mountId, crawl.gen, batch);
        inDir.count(batch);
        crawl.entries += batch.length;
        cursor = page.nextCursor;
        await run.progress({ processed_items: crawl.entries, current_file: dir || "/" });
        await pace(batch.length, maxRate, Date.now() - pageStarted);
      } while (cursor);
      await this.repo.totals.set(this.db, mountId, dir, inDir.totals);
      // The folder is done only now: an interruption before this point reads it again.
      crawl.pending.pop();
      crawl.pending.push(...subdirs.reverse());
      await run.progress({ result: { crawl } });
    }
  }

  /** Stores what storage holds at `target` now; with `tree`, re-reads everything below a folder. */
  private async syncPath(target: ResolvedPath, gen: number, tree: boolean): Promise<void> {
    const mountId = target.row.id;
    const view = this.table.driverFor(target);
    const filter = filterOf(target);
    const entry = await view.stat(target.subPath);
    if (!entry || !filter.admits(target.subPath, entry.isDirectory)) {
      await this.repo.removeTree(mountId, target.subPath);
      return;
    }
    await this.repo.put(
      mountId,
      gen,
      toIndexEntry({ ...entry, path: target.subPath }),
      ancestorsOf(target.subPath),
    );
    if (!tree || !entry.isDirectory || entry.isLink) return;
    // A fresh generation marks what this re-read saw; what it did not see below the folder goes.
    const fresh = await this.nextGeneration(mountId);
    const pending = [target.subPath];
    while (pending.length > 0) {
      const dir = pending.pop()!;
      const inDir = new FolderFigures();
      let cursor: string | null = null;
      do {
        const page = await view.list(dir, { cursor, limit: PAGE });
        const batch = page.entries.filter((e) => filter.admits(e.path, e.isDirectory)).map(toIndexEntry);
        for (const e of batch) if (e.type === "dir" && !e.isLink) pending.push(e.path);
        await this.repo.upsert(mountId, fresh, batch);
        inDir.count(batch);
        cursor = page.nextCursor;
      } while (cursor);
      await this.repo.totals.set(this.db, mountId, dir, inDir.totals);
    }
    await this.repo.sweepBelow(mountId, target.subPath, fresh);
  }

  /** The generation writes carry now (the running crawl's, so its sweep keeps them). */
  private async generation(mountId: string): Promise<number> {
    await this.ensureState(mountId);
    return (await this.state(mountId)).generation;
  }

  private async nextGeneration(mountId: string): Promise<number> {
    const row = await this.db
      .updateTable("mount_index_state")
      .set((eb) => ({ generation: eb("generation", "+", 1) }))
      .where("mount_id", "=", mountId)
      .returning("generation")
      .executeTakeFirstOrThrow();
    return row.generation;
  }

  private async ensureState(mountId: string): Promise<void> {
    await this.db
      .insertInto("mount_index_state")
      .values({
        mount_id: mountId,
        task_id: null,
        last_started: null,
        last_finished: null,
        last_duration_ms: null,
        last_error: null,
      })
      .onConflict((oc) => oc.column("mount_id").doNothing())
      .execute();
  }

  private async state(mountId: string): Promise<MountIndexStateRow> {
    return this.db
      .selectFrom("mount_index_state")
      .selectAll()
      .where("mount_id", "=", mountId)
      .executeTakeFirstOrThrow();
  }

  private async releaseMount(mountId: string, taskId: string): Promise<void> {
    await this.db
      .updateTable("mount_index_state")
      .set({ task_id: null })
      .where("mount_id", "=", mountId)
      .where("task_id", "=", taskId)
      .execute();
  }

  /**
   * An index update that fails must not fail the write that caused it (the
   * storage did change): it is logged and recorded, and the next crawl mends it.
   */
  private async guard(mountId: string, work: () => Promise<void>): Promise<void> {
    try {
      await work();
    } catch (err) {
      this.log.warn({ err, mountId }, "Updating the search index failed");
      await this.db
        .updateTable("mount_index_state")
        .set({ last_error: `Index update failed: ${err instanceof Error ? err.message : String(err)}` })
        .where("mount_id", "=", mountId)
        .execute()
        .catch(() => undefined);
    }
  }
}

/** The figures of one folder, added up page by page as it is read. */
class FolderFigures {
  totals: FolderTotals = NO_TOTALS;
  count(entries: IndexEntry[]): void {
    for (const e of entries) {
      const share = shareOf(e);
      this.totals = {
        size: this.totals.size + share.size,
        files: this.totals.files + share.files,
        folders: this.totals.folders + share.folders,
      };
    }
  }
}

/** Holds a crawl to `maxRate` entries a second; without a cap it still yields to requests between pages. */
async function pace(entries: number, maxRate: number, tookMs: number): Promise<void> {
  const wantMs = maxRate > 0 ? (entries * 1000) / maxRate : 0;
  const waitMs = Math.max(0, wantMs - tookMs);
  await new Promise((resolve) => (waitMs > 0 ? setTimeout(resolve, waitMs) : setImmediate(resolve)));
}
