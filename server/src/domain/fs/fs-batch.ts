/**
 * Batch copy and remove (fs/batch-copy, fs/batch-remove). Every path of a
 * batch is authorized before anything happens, so a batch is never half-done
 * for lack of permission. Small work runs in the request; what may take a
 * while becomes a task: every cross-storage copy (bytes stream through this
 * server), and same-storage directories with many entries.
 */
import type { FsBatchRemoveResult, TaskType } from "@clipshare/shared";
import { creatorIdOf } from "../../auth/creator";
import { badRequest, notFound } from "../../errors";
import type { StorageEntry } from "../../storage/types";
import { presentTask, type TaskService } from "../tasks/task-service";
import { type FsActor, requireOperation, requirePathAccess } from "./access";
import type { DirectUploadService } from "./fs-direct-uploads";
import { FS_ERRORS, fsError } from "./fs-entry";
import type { FsLinks } from "./fs-links";
import type { ResolvedPath } from "./mount-table";
import type { VirtualFileSystem } from "./vfs";
import { normalizeVirtualPath, vbasename, vjoin, vparent } from "./vpath";

/** A directory with more entries than this (or deeper than SMALL_TREE_DIRS directories) is handled by a task. */
const SMALL_TREE_ENTRIES = 200;
const SMALL_TREE_DIRS = 20;
/** Files one client-side copy item may list. */
const CLIENT_COPY_MAX_FILES = 1000;

export interface CopyPlanItem {
  sourcePath: string;
  targetPath: string;
}

export interface CopyTaskPayload {
  items: CopyPlanItem[];
  skipExisting: boolean;
}

export interface DeleteTaskPayload {
  paths: string[];
}

const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e));

/**
 * Where a copy item goes. `targetPath` is the full new path, except that a
 * target ending in "/" for a source that does not is the directory to copy into.
 */
export function copyTarget(item: { sourcePath: string; targetPath: string }): CopyPlanItem {
  const sourcePath = normalizeVirtualPath(item.sourcePath);
  const target = normalizeVirtualPath(item.targetPath);
  const intoDir = item.targetPath.endsWith("/") && !item.sourcePath.endsWith("/");
  return { sourcePath, targetPath: intoDir ? vjoin(target, vbasename(sourcePath)) : target };
}

/**
 * The first free `name(n).ext` next to a taken target. The new name is
 * authorized again: next to the key's base path itself, `base(1)` lies
 * outside it.
 */
export async function freeTarget(
  vfs: VirtualFileSystem,
  actor: FsActor,
  target: ResolvedPath,
  isDirectory: boolean,
): Promise<ResolvedPath> {
  const name = vbasename(target.path);
  const dot = isDirectory ? -1 : name.lastIndexOf(".");
  const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ""];
  for (let n = 1; n <= 1000; n++) {
    const candidate = `${stem}(${n})${ext}`;
    const path = vjoin(vparent(target.path), candidate);
    const subPath = target.subPath.includes("/")
      ? `${target.subPath.slice(0, target.subPath.lastIndexOf("/"))}/${candidate}`
      : candidate;
    await vfs.authorize(actor, "copy", path);
    const next = { ...target, path, subPath };
    if (!(await vfs.statIn(next))) return next;
  }
  throw FS_ERRORS.targetExists(target.path);
}

export class FsBatchService {
  constructor(
    private readonly vfs: VirtualFileSystem,
    private readonly tasks: TaskService,
    private readonly uploads: DirectUploadService,
    private readonly links: FsLinks,
  ) {}

  async batchRemove(actor: FsActor, inputs: string[]): Promise<FsBatchRemoveResult> {
    requireOperation(actor, "delete");
    const paths = inputs.map(normalizeVirtualPath);
    for (const path of paths) requirePathAccess(actor, path, `No permission to delete path: ${path}`);
    for (const path of paths) await this.vfs.authorize(actor, "delete", path);
    let success = 0;
    const failed: Array<{ path: string; error: string }> = [];
    const queued: string[] = [];
    for (const path of paths) {
      try {
        const target = await this.vfs.requireMount(path, actor);
        if (target.subPath === "") throw FS_ERRORS.mountRoot(path);
        const entry = await this.vfs.statIn(target);
        if (!entry) throw FS_ERRORS.notFound(path);
        if (entry.isDirectory && !(await this.isSmallTree(target))) {
          queued.push(path);
          continue;
        }
        await this.vfs.remove(actor, path);
        success++;
      } catch (e) {
        failed.push({ path, error: messageOf(e) });
      }
    }
    const task =
      queued.length > 0
        ? await this.queue(actor, "delete", { paths: queued } satisfies DeleteTaskPayload, queued.length)
        : null;
    return { success, failed, queued: queued.length, taskId: task?.id ?? null, task };
  }

  async batchCopy(
    actor: FsActor,
    input: { items: CopyPlanItem[]; skipExisting: boolean; clientSideCopy: boolean },
    origin: string,
  ) {
    requireOperation(actor, "copy");
    const plan = input.items.map(copyTarget);
    for (const item of plan) await this.vfs.authorize(actor, "copy", item.sourcePath, item.targetPath);
    const details: Array<Record<string, unknown>> = [];
    const counts = { success: 0, skipped: 0, failed: 0 };
    const queued: CopyPlanItem[] = [];
    const crossClient: Array<{
      item: CopyPlanItem;
      source: ResolvedPath;
      target: ResolvedPath;
      entry: StorageEntry;
    }> = [];
    for (const item of plan) {
      try {
        const source = await this.vfs.mounts.resolve(item.sourcePath, actor.principal);
        if (!source) throw FS_ERRORS.notFound(item.sourcePath);
        let target = await this.vfs.requireMount(item.targetPath, actor);
        if (target.subPath === "") throw FS_ERRORS.mountRoot(item.targetPath);
        const entry = await this.vfs.statIn(source);
        if (!entry) throw FS_ERRORS.notFound(item.sourcePath);
        const cross = source.config.id !== target.config.id;
        if (cross && input.clientSideCopy) {
          crossClient.push({ item, source, target, entry });
          continue;
        }
        if (cross || (entry.isDirectory && !(await this.isSmallTree(source)))) {
          queued.push(item);
          details.push({ ...item, status: "queued", crossStorage: cross });
          continue;
        }
        const renamedFrom = target.path;
        if (await this.vfs.statIn(target)) {
          if (input.skipExisting) {
            counts.skipped++;
            details.push({ ...item, status: "skipped", message: "Target already exists" });
            continue;
          }
          target = await freeTarget(this.vfs, actor, target, entry.isDirectory);
        }
        await this.vfs.copyResolved(source, target, { overwrite: false });
        counts.success++;
        details.push({
          ...item,
          targetPath: target.path,
          status: "success",
          renamed: target.path !== renamedFrom,
          ...(target.path !== renamedFrom ? { originalTarget: renamedFrom } : {}),
        });
      } catch (e) {
        counts.failed++;
        details.push({ ...item, status: "failed", error: messageOf(e) });
      }
    }
    const task =
      queued.length > 0
        ? await this.queue(actor, "copy", { items: queued, skipExisting: input.skipExisting }, queued.length)
        : null;
    const result = {
      crossStorage: crossClient.length > 0 || details.some((d) => d.crossStorage === true),
      ...counts,
      queued: queued.length,
      details,
      taskId: task?.id ?? null,
      task,
    };
    if (crossClient.length === 0) return result;
    const crossStorageResults = [];
    const failed: Array<{ sourcePath: string; targetPath: string; error: string }> = [];
    for (const c of crossClient) {
      try {
        crossStorageResults.push(await this.clientCopyItem(actor, c, origin));
      } catch (e) {
        failed.push({ ...c.item, error: messageOf(e) });
      }
    }
    if (crossStorageResults.length === 0)
      throw badRequest("No cross-storage copy items found", "no_copy_items");
    return {
      ...result,
      requiresClientSideCopy: true,
      standardCopyResults: counts,
      crossStorageResults,
      failed,
    };
  }

  /** POST /fs/batch-copy-commit: the client copied the bytes itself; check each target and refresh listings. */
  async batchCopyCommit(
    actor: FsActor,
    input: { targetMountId: string; files: Array<{ targetPath: string }> },
  ) {
    requireOperation(actor, "copy");
    const mount = await this.vfs.mounts.byId(input.targetMountId);
    if (!mount) throw notFound("Target mount does not exist", "mount_not_found");
    const success: Array<{ targetPath: string; fileName: string }> = [];
    const failed: Array<{ targetPath: string; error: string }> = [];
    for (const file of input.files) {
      try {
        const path = normalizeVirtualPath(file.targetPath);
        await this.vfs.authorize(actor, "copy", path);
        const target = await this.vfs.requireMount(path, actor);
        if (target.row.id !== mount.row.id)
          throw badRequest("Target path is not in the target mount", "wrong_mount");
        const entry = await this.vfs.statIn(target);
        if (!entry || entry.isDirectory) throw FS_ERRORS.fileNotFound();
        await this.vfs.invalidate(target, false);
        success.push({ targetPath: path, fileName: vbasename(path) });
      } catch (e) {
        failed.push({ targetPath: file.targetPath, error: messageOf(e) });
      }
    }
    return { success, failed };
  }

  /** Tasks accept work here, then any instance's runner picks it up. */
  private async queue(
    actor: FsActor,
    type: TaskType,
    payload: CopyTaskPayload | DeleteTaskPayload,
    items: number,
  ) {
    const row = await this.tasks.create(actor.principal, type, payload, { total_items: items });
    await this.vfs.caches.tasksQueued();
    return presentTask(row);
  }

  /** True when a directory is small enough to handle inside the request. */
  private async isSmallTree(target: ResolvedPath): Promise<boolean> {
    let entries = 0;
    const dirs = [target.subPath];
    let visited = 0;
    while (dirs.length > 0) {
      if (++visited > SMALL_TREE_DIRS) return false;
      const dir = dirs.pop()!;
      let cursor: string | null = null;
      do {
        const page: Awaited<ReturnType<typeof target.driver.list>> = await target.driver
          .list(dir, { cursor, limit: SMALL_TREE_ENTRIES + 1 })
          .catch((e) => {
            throw fsError(e, target);
          });
        entries += page.entries.length;
        if (entries > SMALL_TREE_ENTRIES) return false;
        for (const e of page.entries) if (e.isDirectory && !e.isLink) dirs.push(e.path);
        cursor = page.nextCursor;
      } while (cursor);
    }
    return true;
  }

  /** 0.7.3's client-side copy: URLs to read each source file and to write its target. */
  private async clientCopyItem(
    actor: FsActor,
    c: { item: CopyPlanItem; source: ResolvedPath; target: ResolvedPath; entry: StorageEntry },
    origin: string,
  ) {
    const { item, source, target, entry } = c;
    const pair = async (from: ResolvedPath, fromEntry: StorageEntry, to: ResolvedPath) => {
      const contentType = fromEntry.contentType ?? "application/octet-stream";
      const read = await this.links.signedUrl(from, fromEntry, "attachment", 3600, origin);
      // The signed PUT writes as the server, not as the key: the target must be reachable (403) now.
      await this.vfs.statIn(to);
      const { request } = await this.uploads.presignedPut(actor.principal, to, contentType, origin);
      return { downloadUrl: read.url, uploadUrl: request.url, uploadHeaders: request.headers, contentType };
    };
    const common = {
      crossStorage: true,
      source: item.sourcePath,
      target: item.targetPath,
      status: "pending",
      sourceMount: source.row.id,
      targetMount: target.row.id,
      fileName: vbasename(item.targetPath),
      renamed: false,
      originalTarget: item.targetPath,
      createdBy: creatorIdOf(actor.principal),
    };
    if (!entry.isDirectory) {
      return {
        ...common,
        isDirectory: false,
        sourceS3Path: source.subPath,
        targetS3Path: target.subPath,
        ...(await pair(source, entry, target)),
      };
    }
    const items = [];
    for await (const walked of this.vfs.walk(actor, item.sourcePath)) {
      if (walked.isDirectory || !walked.target) continue;
      if (items.length >= CLIENT_COPY_MAX_FILES) {
        throw badRequest(
          `More than ${CLIENT_COPY_MAX_FILES} files: use the server-side copy`,
          "too_many_files",
        );
      }
      const relative = walked.path.slice(item.sourcePath.length + 1);
      const to = await this.vfs.requireMount(`${item.targetPath}/${relative}`, actor);
      const from = walked.target;
      const fromEntry = {
        path: from.subPath,
        name: vbasename(walked.path),
        isDirectory: false,
        size: walked.size,
        modified: walked.modified,
        etag: null,
        contentType: walked.contentType,
      };
      items.push({
        sourceKey: from.subPath,
        targetKey: to.subPath,
        targetPath: to.path,
        fileName: vbasename(walked.path),
        relativeDir: relative.includes("/") ? relative.slice(0, relative.lastIndexOf("/")) : "",
        size: walked.size,
        ...(await pair(from, fromEntry, to)),
      });
    }
    return { ...common, isDirectory: true, items };
  }
}
