/**
 * Task handlers of the file system: `copy` (streams between storages, or
 * copies server-side within one) and `delete` (large directories). Both run
 * with the creator's permissions, checked again when the task runs, and both
 * resume after an interruption: items already done are skipped, a target name
 * chosen before the interruption is reused, and files of a half-copied
 * directory that already arrived whole are not copied again.
 */
import { isAppError, notFound } from "../../errors";
import type { TaskHandler, TaskRun } from "../tasks/task-runner";
import { apiActor, type FsActor } from "./access";
import { type CopyPlanItem, type CopyTaskPayload, type DeleteTaskPayload, freeTarget } from "./fs-batch";
import type { ResolvedPath } from "./mount-table";
import { streamCopyFile } from "./transfer";
import type { VirtualFileSystem } from "./vfs";

type ItemStatus = "pending" | "running" | "done" | "skipped" | "failed";

interface CopyItemState extends CopyPlanItem {
  status: ItemStatus;
  /** The target actually used (after picking a free name); fixed before any byte moves. */
  finalPath?: string;
  error?: string;
}

interface Counters {
  total_items: number;
  total_bytes: number;
  processed_items: number;
  failed_items: number;
  skipped_items: number;
  processed_bytes: number;
}

const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e));
const isNotFound = (e: unknown) => isAppError(e) && e.status === 404;

function outcome(items: Array<{ status: ItemStatus }>) {
  const failed = items.filter((i) => i.status === "failed").length;
  if (failed === 0) return { status: "completed" as const };
  const done = items.some((i) => i.status === "done");
  return {
    status: done ? ("partial" as const) : ("failed" as const),
    error: `${failed} of ${items.length} items failed`,
  };
}

export function copyTaskHandler(vfs: VirtualFileSystem): TaskHandler {
  return async (run) => {
    const actor = apiActor(run.principal, "queued");
    const payload = run.payload as CopyTaskPayload;
    const previous = (run.previous as { items?: CopyItemState[] } | null)?.items;
    const items: CopyItemState[] = payload.items.map(
      (item, i) => previous?.[i] ?? { ...item, status: "pending" },
    );
    const counters = await countWork(vfs, actor, items);
    await run.progress({ ...counters, result: { items } }, true);
    for (const item of items) {
      if (item.status !== "pending" && item.status !== "running") continue;
      run.signal.throwIfAborted();
      let target: ResolvedPath | null = null;
      try {
        await vfs.authorize(actor, "copy", item.sourcePath, item.finalPath ?? item.targetPath);
        const source = await vfs.mounts.resolve(item.sourcePath, actor.principal);
        const entry = source ? await vfs.statIn(source) : null;
        if (!source || !entry) throw notFound(`Source does not exist: ${item.sourcePath}`, "not_found");
        target = await vfs.requireMount(item.finalPath ?? item.targetPath, actor);
        const resuming = item.status === "running";
        if (!resuming) {
          if (await vfs.statIn(target)) {
            if (payload.skipExisting) {
              item.status = "skipped";
              counters.skipped_items += 1;
              continue;
            }
            target = await freeTarget(vfs, actor, target, entry.isDirectory);
          }
          item.finalPath = target.path;
          item.status = "running";
          await run.progress({ result: { items } }, true);
        }
        if (entry.isDirectory) await copyTree(vfs, actor, run, counters, source, target, resuming);
        else await copyFile(run, counters, source, target, resuming);
        item.status = "done";
      } catch (e) {
        if (run.signal.aborted) throw e;
        item.status = "failed";
        item.error = messageOf(e);
        counters.failed_items += 1;
      } finally {
        if (target) await vfs.invalidate(target, true);
      }
      await run.progress({ ...counters, current_file: null, result: { items } }, true);
    }
    return outcome(items);
  };
}

export function deleteTaskHandler(vfs: VirtualFileSystem): TaskHandler {
  return async (run) => {
    const actor = apiActor(run.principal, "queued");
    const payload = run.payload as DeleteTaskPayload;
    const previous = (
      run.previous as { items?: Array<{ path: string; status: ItemStatus; error?: string }> } | null
    )?.items;
    const items = payload.paths.map((path, i) => previous?.[i] ?? { path, status: "pending" as ItemStatus });
    const counters = { total_items: items.length, processed_items: 0, failed_items: 0 };
    for (const item of items) {
      if (item.status !== "pending") continue;
      run.signal.throwIfAborted();
      await run.progress({ ...counters, current_file: item.path, result: { items } }, true);
      try {
        await vfs.remove(actor, item.path);
        item.status = "done";
        counters.processed_items++;
      } catch (e) {
        if (isNotFound(e)) {
          item.status = "done"; // already gone: an earlier, interrupted run got there
          counters.processed_items++;
        } else {
          item.status = "failed";
          item.error = messageOf(e);
          counters.failed_items++;
        }
      }
    }
    await run.progress({ ...counters, current_file: null, result: { items } }, true);
    return outcome(items);
  };
}

/** Files and bytes still to copy, so progress has totals from the start. */
async function countWork(vfs: VirtualFileSystem, actor: FsActor, items: CopyItemState[]): Promise<Counters> {
  const counters: Counters = {
    total_items: 0,
    total_bytes: 0,
    processed_items: 0,
    failed_items: 0,
    skipped_items: 0,
    processed_bytes: 0,
  };
  for (const item of items) {
    if (item.status !== "pending" && item.status !== "running") continue;
    const source = await vfs.mounts.resolve(item.sourcePath, actor.principal).catch(() => null);
    const entry = source ? await vfs.statIn(source).catch(() => null) : null;
    if (!entry) {
      counters.total_items += 1;
      continue;
    }
    if (!entry.isDirectory) {
      counters.total_items += 1;
      counters.total_bytes += entry.size;
      continue;
    }
    for await (const walked of vfs.walk(actor, item.sourcePath)) {
      if (walked.isDirectory) continue;
      counters.total_items += 1;
      counters.total_bytes += walked.size;
    }
  }
  return counters;
}

async function copyFile(
  run: TaskRun,
  counters: Counters,
  source: ResolvedPath,
  target: ResolvedPath,
  resuming: boolean,
) {
  await run.progress({ ...counters, current_file: source.path });
  if (resuming) {
    const [from, to] = await Promise.all([
      source.driver.stat(source.subPath),
      target.driver.stat(target.subPath),
    ]);
    if (from && to && !to.isDirectory && from.size === to.size) {
      counters.processed_items += 1;
      counters.processed_bytes += from.size;
      return;
    }
  }
  if (source.config.id === target.config.id) {
    const size = (await source.driver.stat(source.subPath))?.size ?? 0;
    await source.driver.copy(source.subPath, target.subPath, { overwrite: resuming });
    counters.processed_bytes += size;
  } else {
    await streamCopyFile(
      { driver: source.driver, path: source.subPath },
      { driver: target.driver, path: target.subPath },
      {
        signal: run.signal,
        onBytes: (n) => {
          counters.processed_bytes += n;
          run.progress({ ...counters }).catch(() => undefined);
        },
      },
    );
  }
  counters.processed_items += 1;
  await run.progress({ ...counters });
}

async function copyTree(
  vfs: VirtualFileSystem,
  actor: FsActor,
  run: TaskRun,
  counters: Counters,
  source: ResolvedPath,
  target: ResolvedPath,
  resuming: boolean,
) {
  await target.driver.mkdir(target.subPath);
  for await (const walked of vfs.walk(actor, source.path)) {
    run.signal.throwIfAborted();
    const to = await vfs.requireMount(`${target.path}${walked.path.slice(source.path.length)}`, actor);
    if (walked.isDirectory) {
      await to.driver.mkdir(to.subPath);
    } else if (walked.target) {
      await copyFile(run, counters, walked.target, to, resuming);
    }
  }
}
