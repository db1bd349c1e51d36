/**
 * Writing files into the explorer tree through this server: POST /fs/upload (multipart form) and raw PUT stream into storage
 * behind a byte limit (the max-upload-size setting), and large ones show up as
 * `upload` tasks while they stream; POST /fs/update writes text files. Uploads
 * that go straight to storage are in fs-direct-uploads.ts.
 */
import { Readable } from "node:stream";
import type { FsEntry, FsUpdateResult, FsUploadResult, InlineStatusFree } from "@clipshare/shared";
import { EDITABLE_FILE_MAX_BYTES } from "@clipshare/shared";
import { badRequest, payloadTooLarge } from "../../errors";
import { checkDeclaredSize, ingest } from "../../lib/ingest";
import { mimeTypeFor } from "../../storage/mime";
import type { SettingsService } from "../settings/settings-service";
import type { StorageQuota } from "../storage-configs/storage-quota";
import type { TaskService } from "../tasks/task-service";
import type { FsActor } from "./access";
import { FS_ERRORS } from "./fs-entry";
import type { VirtualFileSystem } from "./vfs";
import { normalizeVirtualPath, vbasename, vjoin } from "./vpath";

/** Uploads announced at least this big show up as tasks while they stream. */
export const UPLOAD_TASK_THRESHOLD = 16 * 1024 * 1024;

/** A name that stays one path segment. */
export function checkFileName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed || trimmed === "." || trimmed === ".." || /[/\\]/.test(trimmed)) {
    throw badRequest("File name is invalid", "invalid_file_name");
  }
  return trimmed;
}

/**
 * Whether an upload `path` (not ending in "/") names the file itself rather
 * than a folder to put `fileName` in: its last segment is the file's name, or
 * looks like a file name (has an extension). A full path that does not exist
 * yet so becomes that file, not a folder of that name; "/m/album" stays a
 * folder. An existing directory is always the folder (checked by the caller).
 */
export function namesFile(path: string, fileName: string): boolean {
  const last = vbasename(path);
  return last === fileName || /^[^.].*\.[^.]+$/.test(last);
}

/** The client's type when it says something specific; else the one the name implies. */
function contentTypeFor(name: string, given: string | undefined): string {
  const type = given?.split(";")[0]?.trim().toLowerCase();
  if (!type || type === "application/octet-stream" || !/^[\w.+-]+\/[\w.+-]+$/.test(type))
    return mimeTypeFor(name);
  return type;
}

export interface IngestSize {
  /** Size the client announced (Content-Length, a form field); decides whether the upload is a task. */
  declaredSize?: number | null;
  /** The announced size is the file's exact size (a raw body), so over the limit is refused unread. */
  exactSize?: boolean;
}

export class FsUploadService {
  constructor(
    private readonly vfs: VirtualFileSystem,
    private readonly settings: SettingsService,
    private readonly tasks: TaskService,
    private readonly quota: StorageQuota,
  ) {}

  /**
   * POST /fs/upload. `pathInput` is the directory to upload into (it ends in
   * "/" or is an existing directory), else the full path of the file to write,
   * whether or not it exists yet (always, with `isFilePath`).
   */
  async upload(
    actor: FsActor,
    pathInput: string,
    fileName: string,
    body: Readable,
    options: IngestSize & { contentType?: string; isFilePath?: boolean } = {},
  ): Promise<InlineStatusFree<FsUploadResult>> {
    const name = checkFileName(fileName);
    const given = normalizeVirtualPath(pathInput);
    await this.vfs.authorize(actor, "upload", given);
    const intoDir =
      !options.isFilePath &&
      (pathInput.endsWith("/") || !namesFile(given, name) || (await this.isDirectory(actor, given)));
    const path = intoDir ? vjoin(given, name) : given;
    await this.vfs.authorize(actor, "upload", path);
    const { entry, taskId } = await this.ingestFile(actor, path, body, options, (input, signal) =>
      this.vfs.write(actor, path, input, {
        contentType: contentTypeFor(name, options.contentType),
        signal,
        ...(options.exactSize && options.declaredSize != null ? { size: options.declaredSize } : {}),
      }),
    );
    return { ...this.presentUpload(entry), ...(taskId ? { taskId } : {}) };
  }

  /**
   * Streams a body into the explorer tree with the upload rules every path
   * shares (fs/upload, WebDAV PUT, server fetches): the max-upload-size limit
   * narrowed to the target storage's free quota, and uploads announced at
   * UPLOAD_TASK_THRESHOLD or more tracked as `upload` tasks.
   */
  async ingestFile(
    actor: FsActor,
    path: string,
    body: Readable,
    size: IngestSize,
    write: (input: Readable, signal: AbortSignal) => Promise<FsEntry>,
  ): Promise<{ entry: FsEntry; taskId?: string }> {
    const maxUploadBytes = await this.settings.maxUploadBytes();
    // Unmounted paths have no storage: the write below fails with the right error.
    const target = await this.vfs.mounts.resolve(path, actor.principal);
    const limit = target
      ? await this.quota.streamLimit(target.config, maxUploadBytes)
      : { maxBytes: maxUploadBytes };
    const declared = size.declaredSize ?? null;
    const limits = { ...limit, declaredSize: size.exactSize ? declared : null };
    checkDeclaredSize(limits);
    const task =
      declared !== null && declared >= UPLOAD_TASK_THRESHOLD
        ? await this.tasks.start(
            actor.principal,
            "upload",
            { path, size: declared },
            { total_items: 1, total_bytes: declared },
          )
        : null;
    let received = 0;
    let lastReport = Date.now();
    const onBytes = (total: number) => {
      received = total;
      if (!task || Date.now() - lastReport < 1000) return;
      lastReport = Date.now();
      this.tasks.progress(task.id, { processed_bytes: total, current_file: path }).catch(() => undefined);
    };
    try {
      const { result: entry } = await ingest(body, write, { ...limits, onBytes });
      if (task) {
        await this.tasks.finish(task.id, "completed", {
          processed_items: 1,
          processed_bytes: entry.size,
          total_bytes: entry.size,
          result: { path },
        });
      }
      return { entry, ...(task ? { taskId: task.id } : {}) };
    } catch (error) {
      if (task) {
        await this.tasks
          .finish(task.id, "failed", { processed_bytes: received, error: (error as Error).message })
          .catch(() => undefined);
      }
      throw error;
    }
  }

  /** POST /fs/update: writes a text file (created if missing), up to 10 MB. */
  async updateText(
    actor: FsActor,
    input: string,
    content: string,
  ): Promise<InlineStatusFree<FsUpdateResult>> {
    const bytes = Buffer.from(content, "utf8");
    if (bytes.length > EDITABLE_FILE_MAX_BYTES) {
      throw payloadTooLarge("File content too large, exceeds max (10MB)");
    }
    const path = normalizeVirtualPath(input);
    await this.vfs.authorize(actor, "upload", path);
    const target = await this.vfs.requireMount(path, actor);
    const existing = await this.vfs.statIn(target);
    if (existing?.isDirectory) throw FS_ERRORS.isDirectory(path);
    const entry = await this.vfs.write(actor, path, Readable.from([bytes]), {
      size: bytes.length,
      contentType: mimeTypeFor(path),
    });
    return {
      path: entry.path,
      s3Path: target.subPath,
      etag: entry.etag,
      contentType: entry.contentType,
      size: entry.size,
      isNewFile: existing === null,
    };
  }

  // ---- internals -----------------------------------------------------------

  private presentUpload(entry: FsEntry): InlineStatusFree<FsUploadResult> {
    return {
      fileName: entry.name,
      path: entry.path,
      size: entry.size,
      contentType: entry.contentType,
      etag: entry.etag,
      mount_id: entry.mount_id,
    };
  }

  private async isDirectory(actor: FsActor, path: string): Promise<boolean> {
    const target = await this.vfs.mounts.resolve(path, actor.principal);
    if (!target) return true; // "/" or a virtual directory: the write below fails with the right error
    return (await this.vfs.statIn(target))?.isDirectory ?? false;
  }
}
