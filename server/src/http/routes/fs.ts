/**
 * The file-system API: browsing, reading and changing
 * the mounted tree, plus its tasks. Every handler validates its input and hands
 * it with the caller to the domain layer, which checks permission bits and the
 * key's base path for every path it touches.
 */
import {
  type FsPublicInfo,
  fsArchiveEntryQuery,
  fsBatchRemoveRequest,
  fsCreateShareRequest,
  fsFileLinkQuery,
  fsListQuery,
  fsMkdirRequest,
  fsPathQuery,
  fsRenameRequest,
  fsSearchQuery,
  fsUpdateRequest,
  MOUNT_ANY,
  Permission,
  taskListQuery,
} from "@clipshare/shared";
import { type Context, Hono } from "hono";
import { requireAnyPermission, requireAuthenticated } from "../../auth/policy";
import type { Principal } from "../../auth/principal";
import type { AppContext } from "../../context";
import type { TaskRow } from "../../db/schema";
import { listArchive, openArchiveEntry, openedArchive } from "../../domain/archives/archive-reader";
import { isVisitor } from "../../domain/fs/access";
import { namesFile } from "../../domain/fs/fs-uploads";
import { displayPath, normalizeVirtualPath } from "../../domain/fs/vpath";
import { presentTask } from "../../domain/tasks/task-service";
import { badRequest } from "../../errors";
import { spoolDir } from "../../lib/spool";
import { archiveEntryResponse } from "../archive-entry";
import { declaredLength, parseWith, readJson, requestStream } from "../body";
import { ok, withInlineStatus } from "../envelope";
import { fsActorOf } from "../fs-actor";
import { readMultipartFile } from "../multipart";
import { publicOrigin } from "../request-origin";
import { described, keyRouteDocs } from "../route-doc";
import { serveObject } from "../serve-object";
import { accessClientOf } from "../share-visitor";
import type { AppEnv } from "../types";
import { fsTransferRoutes } from "./fs-transfer";

/** A form's `path` names the directory, or the file itself when its last segment is the file's name. */
function fsUploadDirectory(path: string, name: string): { path: string; fileName: string } {
  const trimmed = path.replace(/\/+$/, "");
  const last = trimmed.split("/").pop();
  if (!path.endsWith("/") && last && namesFile(trimmed, name))
    return { path: trimmed.slice(0, -last.length - 1) || "/", fileName: last };
  return { path, fileName: name };
}

/** Keys holding any of these can queue tasks (explorer work, or a server fetch), so they may list their own. */
const TASK_CREATING_PERMISSIONS = MOUNT_ANY | Permission.FILE_SHARE;

const isTrue = (value: string | undefined) => value === "true" || value === "1";

/** fs/update carries up to 10 MB of text, which JSON escaping can inflate. */
const UPDATE_JSON_LIMIT = 64 * 1024 * 1024;

export function fsRoutes(ctx: AppContext) {
  const app = new Hono<AppEnv>();
  const { vfs, links, uploads, batch, search, shares, tasks, visitorDownloads } = ctx.fs;
  const actorOf = fsActorOf;
  const origin = (c: Parameters<typeof publicOrigin>[0]) => publicOrigin(c, ctx.config.trustProxy);

  app.get(
    "/fs/public",
    described(
      (w) => ({
        summary: "Where visitors without credentials may browse (public browsing)",
        tag: "File system",
        access: "public",
        data: w.fsPublicInfo,
      }),
      async (c) => {
        const [roots, settings] = await Promise.all([vfs.publicRoots(), ctx.settings.getAll()]);
        const info: FsPublicInfo = {
          roots: roots.map((root) => displayPath(root, true)),
          webdav: settings.public_webdav && roots.length > 0,
        };
        return ok(c, info, "Fetched");
      },
    ),
  );

  app.get(
    "/fs/list",
    described(
      (w) => ({
        summary: "List a directory",
        errors: [...w.fsPathErrors, "not_a_directory"],
        tag: "File system",
        access: "key",
        permissions: ["MOUNT_VIEW"],
        visitors: true,
        query: w.fsListQuery,
        data: w.fsListing,
      }),
      async (c) => {
        const q = parseWith(fsListQuery, c.req.query());
        const listing = await vfs.list(actorOf(c), q.path, {
          limit: q.limit,
          cursor: q.cursor,
          refresh: q.refresh,
          sizes: q.sizes,
        });
        return ok(c, listing, "Fetched");
      },
    ),
  );

  app.get(
    "/fs/get",
    described(
      (w) => ({
        summary: "A file or directory, with a file's URLs",
        errors: [...w.fsPathErrors],
        tag: "File system",
        access: "key",
        permissions: ["MOUNT_VIEW"],
        visitors: true,
        query: w.fsPathQuery,
        data: w.fsFileInfo,
      }),
      async (c) => {
        const q = parseWith(fsPathQuery, c.req.query());
        const { entry, target, raw } = await vfs.statDetailed(actorOf(c), q.path);
        if (!target || !raw || entry.isDirectory) {
          const totals = target ? await vfs.folderTotals(actorOf(c), q.path) : null;
          const sizes = totals
            ? { folderSize: totals.size, folderFiles: totals.files, folderFolders: totals.folders }
            : {};
          return ok(c, { ...entry, ...sizes, contentType: "application/x-directory" }, "Fetched");
        }
        const visitor = isVisitor(c.get("principal"));
        return ok(c, { ...entry, ...(await links.urlsFor(target, raw, origin(c), visitor)) }, "Fetched");
      },
    ),
  );

  app.get(
    "/fs/download",
    described(
      (w) => ({
        summary: "Download a file",
        errors: [
          ...w.fsPathErrors,
          ...w.visitorDownloadErrors,
          "is_a_directory",
          "invalid_range",
          "range_not_satisfiable",
        ],
        tag: "File system",
        access: "key",
        permissions: ["MOUNT_VIEW"],
        visitors: true,
        query: w.fsPathQuery,
        file: "bytes",
      }),
      async (c) => {
        const q = parseWith(fsPathQuery, c.req.query());
        const { target, entry } = await vfs.openFile(actorOf(c), q.path);
        await visitorDownloads.admit(
          c.get("principal"),
          [target.path],
          "download",
          accessClientOf(c),
          entry.size,
        );
        return serveObject(c, target.driver, target.subPath, {
          filename: entry.name,
          contentType: entry.contentType,
          disposition: "attachment",
          entry,
        });
      },
    ),
  );

  // Inside archive files: the entries, and one entry streamed out (domain/archives).
  const archiveOf = async (c: Context<AppEnv>, path: string) => {
    const { target, entry } = await vfs.openFile(actorOf(c), path);
    return openedArchive(target.driver, { path: target.subPath, name: entry.name, size: entry.size });
  };

  app.get(
    "/fs/archive",
    described(
      (w) => ({
        summary: "The entries of a ZIP, TAR or TAR.GZ file, without unpacking it",
        errors: [...w.fsPathErrors, ...w.archiveErrors],
        tag: "File system",
        access: "key",
        permissions: ["MOUNT_VIEW"],
        visitors: true,
        query: w.fsPathQuery,
        data: w.fsArchiveListing,
      }),
      async (c) => {
        const q = parseWith(fsPathQuery, c.req.query());
        const { kind, source } = await archiveOf(c, q.path);
        return ok(c, await listArchive(source, kind), "Fetched");
      },
    ),
  );

  app.get(
    "/fs/archive/entry",
    described(
      (w) => ({
        summary: "One entry of an archive file, streamed out",
        errors: [...w.fsPathErrors, ...w.visitorDownloadErrors, ...w.archiveEntryErrors],
        tag: "File system",
        access: "key",
        permissions: ["MOUNT_VIEW"],
        visitors: true,
        query: w.fsArchiveEntryQuery,
        file: "bytes",
      }),
      async (c) => {
        const q = parseWith(fsArchiveEntryQuery, c.req.query());
        const { kind, source } = await archiveOf(c, q.path);
        const entryPath = `${normalizeVirtualPath(q.path)}/${q.entry}`;
        await visitorDownloads.admit(c.get("principal"), [entryPath], "download", accessClientOf(c), null);
        const opened = await openArchiveEntry(source, kind, q.entry);
        return archiveEntryResponse(c, opened, q.entry, q.download ?? false);
      },
    ),
  );

  app.get(
    "/fs/file-link",
    described(
      (w) => ({
        summary: "A time-limited link to a file",
        errors: [...w.fsPathErrors, "is_a_directory"],
        tag: "File system",
        access: "key",
        permissions: ["MOUNT_VIEW"],
        visitors: true,
        query: w.fsFileLinkQuery,
        data: w.fsFileLink,
      }),
      async (c) => {
        const q = parseWith(fsFileLinkQuery, c.req.query());
        const data = await links.fileLink(
          actorOf(c),
          q.path,
          { forceDownload: q.force_download ?? false, expiresIn: q.expires_in },
          origin(c),
        );
        return ok(c, withInlineStatus(data), "Fetched");
      },
    ),
  );

  app.get(
    "/fs/search",
    described(
      (w) => ({
        summary: "Search file names",
        errors: [...w.fsPathErrors],
        tag: "File system",
        access: "key",
        permissions: ["MOUNT_VIEW"],
        visitors: true,
        query: w.fsSearchQuery,
        data: w.fsSearchResponse,
      }),
      async (c) => {
        const q = parseWith(fsSearchQuery, c.req.query());
        return ok(c, await search.search(actorOf(c), q), "Search completed");
      },
    ),
  );

  app.post(
    "/fs/mkdir",
    described(
      (w) => ({
        summary: "Create a directory",
        errors: [...w.fsPathErrors, "dir_exists", "parent_missing", "target_exists", "root_forbidden"],
        tag: "File system",
        access: "key",
        permissions: ["MOUNT_UPLOAD"],
        body: w.fsMkdirRequest,
        data: w.z.unknown(),
      }),
      async (c) => {
        const body = await readJson(c, fsMkdirRequest);
        return ok(c, await vfs.mkdir(actorOf(c), body.path), "Directory created", 201);
      },
    ),
  );

  // Multipart form: `file`, `path` (directory, or the full file path; may also be a query parameter)
  // and `use_multipart`, in any order.
  app.post(
    "/fs/upload",
    described(
      (w) => ({
        summary: "Upload a file (multipart form), or start an upload in parts",
        errors: [
          ...w.fsPathErrors,
          ...w.uploadErrors,
          ...w.formErrors,
          "target_exists",
          "is_a_directory",
          "path_reserved",
        ],
        tag: "File system",
        access: "key",
        permissions: ["MOUNT_UPLOAD"],
        upload: "form",
        data: w.z.union([w.fsUploadResult, w.fsMultipartStarted]),
      }),
      async (c) => {
        const actor = actorOf(c);
        const queryPath = c.req.query("path");
        const result = await readMultipartFile(c, {
          fileField: "file",
          // Placed once the target and the mode are known: `use_multipart` may follow the file (0.7.3
          // forms send it last), so a form that names the path first but not the mode is spooled.
          placed: (fields) => (fields.path ?? queryPath) !== undefined && fields.use_multipart !== undefined,
          spool: { dir: spoolDir(ctx.config.dataDir), maxBytes: await ctx.settings.maxUploadBytes() },
          onFile: async (part) => {
            const path = part.fields.path ?? queryPath;
            const name = part.fields.fileName || part.fields.filename || part.filename;
            if (!path || !name) throw badRequest("Please provide file and path", "missing_file");
            if (isTrue(part.fields.use_multipart)) {
              // 0.7.3: the form only announces the file; its parts go to the URLs of the answer.
              part.stream.resume();
              const announced = declaredLength(part.fields.fileSize);
              const started = await ctx.fs.multipartUploads.initMultipart(
                actor,
                { ...fsUploadDirectory(path, name), fileSize: part.size ?? announced ?? undefined },
                origin(c),
              );
              return { started };
            }
            const uploaded = await uploads.upload(actor, path, name, part.stream, {
              declaredSize: part.size ?? declaredLength(c.req.header("content-length")),
              exactSize: part.size !== null,
              contentType: part.fields.contentType || part.mimeType,
            });
            return { uploaded };
          },
        });
        if (result.started) return ok(c, result.started, "Multipart upload started");
        return ok(c, withInlineStatus(result.uploaded, "File uploaded"), "File uploaded", 201);
      },
    ),
  );

  // Raw body: PUT /fs/upload?path=/mount/dir/name.ext (scripts, large files).
  app.put(
    "/fs/upload",
    described(
      (w) => ({
        summary: "Upload a file as the raw body",
        errors: [...w.fsPathErrors, ...w.uploadErrors, "target_exists", "is_a_directory", "path_reserved"],
        tag: "File system",
        access: "key",
        permissions: ["MOUNT_UPLOAD"],
        query: w.fsPathQuery,
        upload: "raw",
        data: w.fsUploadResult,
      }),
      async (c) => {
        const q = parseWith(fsPathQuery, c.req.query());
        const name = q.path.replace(/\/+$/, "").split("/").pop() ?? "";
        const declared = declaredLength(c.req.header("content-length"));
        const data = await uploads.upload(actorOf(c), q.path, name, requestStream(c), {
          declaredSize: declared,
          exactSize: declared !== null,
          isFilePath: true,
          contentType: c.req.header("content-type"),
        });
        return ok(c, withInlineStatus(data, "File uploaded"), "File uploaded", 201);
      },
    ),
  );

  app.post(
    "/fs/update",
    described(
      (w) => ({
        summary: "Write a text file",
        errors: [...w.fsPathErrors, "content_too_large", "is_a_directory", "insufficient_storage"],
        tag: "File system",
        access: "key",
        permissions: ["MOUNT_UPLOAD"],
        body: w.fsUpdateRequest,
        data: w.fsUpdateResult,
      }),
      async (c) => {
        const body = await readJson(c, fsUpdateRequest, UPDATE_JSON_LIMIT);
        const data = await uploads.updateText(actorOf(c), body.path, body.content);
        const message = data.isNewFile ? "File created" : "File updated";
        return ok(c, withInlineStatus(data, message), message);
      },
    ),
  );

  app.post(
    "/fs/rename",
    described(
      (w) => ({
        summary: "Rename or move",
        errors: [
          ...w.fsPathErrors,
          "target_exists",
          "cross_storage",
          "mount_root",
          "root_forbidden",
          "folder_hidden_entries",
        ],
        tag: "File system",
        access: "key",
        permissions: ["MOUNT_RENAME"],
        body: w.fsRenameRequest,
        data: w.z.strictObject({ oldPath: w.z.string(), newPath: w.z.string() }),
      }),
      async (c) => {
        const body = await readJson(c, fsRenameRequest);
        await vfs.rename(actorOf(c), body.oldPath, body.newPath);
        return ok(c, { oldPath: body.oldPath, newPath: body.newPath }, "Rename succeeded");
      },
    ),
  );

  app.delete(
    "/fs/batch-remove",
    described(
      (w) => ({
        summary: "Delete files and directories",
        errors: [...w.fsPathErrors, "mount_root", "root_forbidden", "directory_not_empty"],
        tag: "File system",
        access: "key",
        permissions: ["MOUNT_DELETE"],
        body: w.fsBatchRemoveRequest,
        data: w.fsBatchRemoveResult,
      }),
      async (c) => {
        const body = await readJson(c, fsBatchRemoveRequest);
        const result = await batch.batchRemove(actorOf(c), body.paths);
        const message =
          result.queued > 0
            ? `Deleted ${result.success}; ${result.queued} large directories are being deleted in a background task`
            : `Deleted ${result.success}, failed ${result.failed.length}`;
        return ok(c, result, message, result.queued > 0 ? 202 : 200);
      },
    ),
  );

  app.post(
    "/fs/create-share",
    described(
      (w) => ({
        summary: "Share an explorer file",
        errors: [...w.fsPathErrors, "is_a_directory", "slug_taken", "invalid_expiry"],
        tag: "File system",
        access: "key",
        permissions: ["MOUNT_VIEW", "FILE_SHARE"],
        body: w.fsCreateShareRequest,
        data: w.createdFileShare,
      }),
      async (c) => {
        const body = await readJson(c, fsCreateShareRequest);
        const { path, ...options } = body;
        const share = await shares.createShare(actorOf(c), path, options);
        return ok(c, withInlineStatus(share, "Share created"), "Share created", 201);
      },
    ),
  );

  // ---- tasks: owners see and manage their own, the admin all ----------------
  // A task is read, cancelled and deleted by its creator whatever its permissions
  // now (a FILE_SHARE key polls the server fetch it queued); the service answers
  // 404 for anyone else's task.

  app.get(
    "/fs/tasks",
    described(
      (w) => ({
        summary: "Own tasks (the admin: all)",
        tag: "Tasks",
        access: "key",
        permissions: [
          "MOUNT_VIEW",
          "MOUNT_UPLOAD",
          "MOUNT_COPY",
          "MOUNT_RENAME",
          "MOUNT_DELETE",
          "FILE_SHARE",
        ],
        anyPermission: true,
        query: w.taskListQuery,
        data: w.fsTaskList,
      }),
      async (c) => {
        const principal = c.get("principal");
        requireAnyPermission(principal, TASK_CREATING_PERMISSIONS);
        const q = parseWith(taskListQuery, c.req.query());
        const { items, total } = await tasks.list(principal, q);
        return ok(
          c,
          { tasks: items, total, limit: q.limit, offset: q.offset, hasMore: q.offset + items.length < total },
          "Fetched",
        );
      },
    ),
  );

  const taskDoc = keyRouteDocs("Tasks");
  /** A route on one task of the caller's, by id: `act` reads or changes it, the task is the answer. */
  const oneTask =
    (act: (principal: Principal, id: string) => Promise<TaskRow>, message: string) =>
    async (c: Context<AppEnv>) => {
      const principal = c.get("principal");
      requireAuthenticated(principal);
      return ok(c, presentTask(await act(principal, c.req.param("id")!)), message);
    };

  app.get(
    "/fs/tasks/:id",
    described(
      (w) => taskDoc({ summary: "One task", errors: ["task_not_found"], data: w.fsTask }),
      oneTask((principal, id) => tasks.get(principal, id), "Fetched"),
    ),
  );

  app.post(
    "/fs/tasks/:id/cancel",
    described(
      (w) =>
        taskDoc({ summary: "Cancel a task", errors: ["task_not_found", "task_finished"], data: w.fsTask }),
      oneTask((principal, id) => tasks.cancel(principal, id), "Task cancellation requested"),
    ),
  );

  app.delete(
    "/fs/tasks/:id",
    described(
      () => taskDoc({ summary: "Delete a finished task", errors: ["task_not_found", "task_running"] }),
      async (c) => {
        const principal = c.get("principal");
        requireAuthenticated(principal);
        await tasks.delete(principal, c.req.param("id")!);
        return ok(c, null, "Task deleted");
      },
    ),
  );

  app.route("/", fsTransferRoutes(ctx));
  return app;
}
