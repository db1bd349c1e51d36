/**
 * How explorer entries look on the wire (0.7.3 field names plus the explicit
 * `type`, `mimetype` and `etag`), and the file-system layer's own
 * error texts. Driver errors name driver-relative paths; they are re-worded
 * here with the virtual path the caller knows.
 */
import type { FsEntry } from "@clipshare/shared";
import { AppError, conflict, forbidden, isAppError, notFound } from "../../errors";
import type { StorageEntry } from "../../storage/types";
import type { ActiveMount, MountChild, ResolvedPath } from "./mount-table";
import { displayPath, fromSubPath, vbasename } from "./vpath";

export function presentEntry(mount: ActiveMount, entry: StorageEntry): FsEntry {
  const path = fromSubPath(mount.row.mount_path, entry.path);
  return {
    name: entry.path === "" ? vbasename(path) : entry.name,
    path: displayPath(path, entry.isDirectory),
    type: entry.isDirectory ? "directory" : "file",
    isDirectory: entry.isDirectory,
    isVirtual: false,
    isMount: entry.path === "",
    size: entry.isDirectory ? 0 : entry.size,
    modified: entry.modified ? entry.modified.toISOString() : null,
    mimetype: entry.isDirectory ? null : entry.contentType,
    contentType: entry.isDirectory ? null : entry.contentType,
    etag: entry.etag,
    mount_id: mount.row.id,
    storage_type: mount.row.storage_type,
  };
}

/** A directory that exists in the tree because of mounts (the root, /a above a mount at /a/b, a mount root). */
export function presentMountChild(child: MountChild): FsEntry {
  return virtualDirectory(child.path, child.mount);
}

export function virtualDirectory(path: string, mount: ActiveMount | null): FsEntry {
  return {
    name: path === "/" ? "" : vbasename(path),
    path: displayPath(path, true),
    type: "directory",
    isDirectory: true,
    isVirtual: mount === null,
    isMount: mount !== null,
    size: 0,
    modified: mount ? mount.row.updated_at : null,
    mimetype: null,
    contentType: null,
    etag: null,
    mount_id: mount?.row.id ?? null,
    storage_type: mount?.row.storage_type ?? null,
  };
}

/** Directories first, then by name: the order of a complete listing (0.7.3). */
export function directoriesFirst(a: FsEntry, b: FsEntry): number {
  if (a.isDirectory !== b.isDirectory) return a.isDirectory ? -1 : 1;
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

export const FS_ERRORS = {
  root: () => forbidden("Cannot operate on root directory", "root_forbidden"),
  virtual: (path: string) =>
    forbidden(`Cannot operate on ${path}: it is not inside a mount point`, "virtual_directory"),
  mountRoot: (path: string) =>
    forbidden(`Cannot delete, move or replace the mount point ${path}`, "mount_root"),
  mountMissing: () => notFound("Mount does not exist", "mount_not_found"),
  notFound: (path: string) => notFound(`File or directory does not exist: ${path}`, "not_found"),
  fileNotFound: () => notFound("File does not exist", "not_found"),
  targetExists: (path: string) => conflict(`Target file already exists: ${path}`, "target_exists"),
  dirExists: (path: string) => conflict(`Directory already exists: ${path}`, "dir_exists"),
  parentMissing: (path: string) => conflict(`Parent directory does not exist: ${path}`, "parent_missing"),
  isDirectory: (path: string) => conflict(`Is a directory: ${path}`, "is_a_directory"),
  /** The folder's password has not been given; `details.path` names the folder to unlock. */
  locked: (folder: string) =>
    new AppError(403, "folder_locked", `This folder is protected by a password: ${folder}`, { path: folder }),
  hiddenInside: (path: string) =>
    forbidden(
      `${path} holds hidden entries; it cannot be copied or moved as a whole`,
      "folder_hidden_entries",
    ),
  crossStorage: () =>
    new AppError(
      400,
      "cross_storage",
      "Cannot move between different storages; copy, then delete the source",
    ),
} as const;

/** Re-words a driver error with the virtual path; anything else passes through. */
export function fsError(e: unknown, target: ResolvedPath | { path: string }): unknown {
  if (!isAppError(e)) return e;
  const path = displayPath(target.path, false);
  switch (e.error) {
    case "not_found":
      return FS_ERRORS.notFound(path);
    case "target_exists":
      return FS_ERRORS.targetExists(path);
    case "is_a_directory":
      return FS_ERRORS.isDirectory(path);
    case "not_a_directory":
      return conflict(`A file is in the way: ${path}`, "not_a_directory");
    case "directory_not_empty":
      return conflict(`Directory is not empty: ${path}`, "directory_not_empty");
    case "invalid_path":
      return new AppError(400, "invalid_path", e.message);
    case "path_outside_root":
      // The driver names its own relative path; the caller knows the virtual one.
      return forbidden(`Path leads outside its storage or base path: ${path}`, "path_outside_root");
    default:
      return e;
  }
}
