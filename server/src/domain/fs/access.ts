/**
 * Who may do what in the explorer tree. The file-system services take an
 * FsActor: the principal plus which permission bit each kind of operation
 * needs. The JSON API uses the MOUNT_* bits; WebDAV maps the same
 * operations onto WEBDAV_READ / WEBDAV_MANAGE. The base-path rule
 * is the same for both, and for users and API keys alike: their grant's base path.
 */
import { isPathWithinBase, normalizeBasePath, Permission } from "@clipshare/shared";
import { canAccessPath, requirePermission } from "../../auth/policy";
import { basePathOf, type Principal } from "../../auth/principal";
import { forbidden } from "../../errors";

export type FsOperation = "view" | "upload" | "copy" | "rename" | "delete";

export interface FsActor {
  readonly principal: Principal;
  readonly bits: Readonly<Record<FsOperation, number>>;
  /**
   * Path-password passes the request carries (folder-passes.ts); "queued" for a
   * task, whose paths passed the password check when it was queued.
   */
  readonly folderTokens: readonly string[] | "queued";
  /**
   * With "queued": the password-protected folders below its paths that were
   * open to the caller when the work was queued or the link signed (a walk
   * enters these; other locked folders below stay out).
   */
  readonly openedFolders?: readonly string[];
}

const API_BITS: Record<FsOperation, number> = {
  view: Permission.MOUNT_VIEW,
  upload: Permission.MOUNT_UPLOAD,
  copy: Permission.MOUNT_COPY,
  rename: Permission.MOUNT_RENAME,
  delete: Permission.MOUNT_DELETE,
};

const WEBDAV_BITS: Record<FsOperation, number> = {
  view: Permission.WEBDAV_READ,
  upload: Permission.WEBDAV_MANAGE,
  copy: Permission.WEBDAV_MANAGE,
  rename: Permission.WEBDAV_MANAGE,
  delete: Permission.WEBDAV_MANAGE,
};

export const apiActor = (principal: Principal, folderTokens: FsActor["folderTokens"] = []): FsActor => ({
  principal,
  bits: API_BITS,
  folderTokens,
});
/** WebDAV clients cannot answer a path password: they carry no passes. */
export const webdavActor = (principal: Principal): FsActor => ({
  principal,
  bits: WEBDAV_BITS,
  folderTokens: [],
});

export const PATH_FORBIDDEN = "No permission to access this path";

/**
 * A caller without credentials, who may read the public part of the tree
 * (public browsing, docs/public-browsing.md) and nothing else. Where it may
 * read is decided per path by VirtualFileSystem.authorize and entryFilter.
 */
export function isVisitor(principal: Principal): principal is Extract<Principal, { kind: "anonymous" }> {
  return principal.kind === "anonymous";
}

/**
 * The operation's permission bit (401 for anonymous, 403 for a key without it).
 * A visitor passes for "view": whether the path is public is the tree's check.
 */
export function requireOperation(actor: FsActor, op: FsOperation): void {
  if (op === "view" && isVisitor(actor.principal)) return;
  requirePermission(actor.principal, actor.bits[op]);
}

/** A user or key works only at or below its base path. */
export function requirePathAccess(actor: FsActor, path: string, message = PATH_FORBIDDEN): void {
  if (!canAccessPath(actor.principal, path)) throw forbidden(message, "path_forbidden");
}

/**
 * Both checks at once, for every path the operation touches. Only the tree's
 * own check (VirtualFileSystem.authorize) calls this: it adds the folder rules.
 */
export function checkBitsAndBase(actor: FsActor, op: FsOperation, ...paths: string[]): void {
  requireOperation(actor, op);
  for (const path of paths) requirePathAccess(actor, path);
}

/**
 * A mount "relates" to a user or key when it lies under their base path or the
 * base path lies inside it; those are the mounts they may see.
 */
export function canSeeMount(principal: Principal, mountPath: string): boolean {
  const base = basePathOf(principal);
  if (base === null) return false;
  return isPathWithinBase(base, mountPath) || isPathWithinBase(mountPath, base);
}

/** The deepest path the principal may start a walk at, given a wanted root; null if none. */
export function clampToBase(principal: Principal, root: string): string | null {
  const base = basePathOf(principal);
  if (base === null) return null;
  if (isPathWithinBase(base, root)) return root;
  if (isPathWithinBase(root, base)) return normalizeBasePath(base);
  return null;
}
