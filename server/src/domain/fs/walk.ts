/**
 * Walking a subtree of the virtual file system: used by ZIP downloads, search,
 * copy tasks and client-side copies. Directories come before their contents;
 * the walk crosses into nested mounts and skips the entries they shadow. A
 * linked directory (symlink) is yielded but not entered, so a link to an
 * ancestor cannot make the walk endless.
 */
import type { ListPage } from "../../storage/types";
import type { FsActor } from "./access";
import { fsError } from "./fs-entry";
import type { MountChild, MountTable, ResolvedPath } from "./mount-table";
import { fromSubPath } from "./vpath";

export interface WalkItem {
  path: string;
  isDirectory: boolean;
  size: number;
  modified: Date | null;
  contentType: string | null;
  /** Where it is stored; null for directories that exist only because of mounts below them. */
  target: ResolvedPath | null;
}

/** What a walk reads of the tree (the VirtualFileSystem, which walks through this module). */
export interface WalkableTree {
  readonly mounts: MountTable;
  entryFilter(actor: FsActor, root: string): Promise<((path: string, isLink?: boolean) => boolean) | null>;
  visibleMountChildren(actor: FsActor, dir: string): Promise<MountChild[]>;
}

/**
 * Everything below `root` (not `root` itself) that the actor may see: hidden
 * entries (folder-rules.ts) are neither yielded nor entered. `root` must
 * already be authorized.
 */
export async function* walkTree(vfs: WalkableTree, actor: FsActor, root: string): AsyncGenerator<WalkItem> {
  const { mounts } = vfs;
  const shows = await vfs.entryFilter(actor, root);
  const stack = [root];
  while (stack.length > 0) {
    const dir = stack.pop()!;
    const children = await vfs.visibleMountChildren(actor, dir);
    const mountNames = new Set(children.map((c) => c.name));
    const target = await mounts.resolve(dir, actor.principal);
    const subdirs: string[] = [];
    if (target) {
      let cursor: string | null = null;
      do {
        let page: ListPage;
        try {
          page = await target.driver.list(target.subPath, { cursor });
        } catch (e) {
          throw fsError(e, target);
        }
        for (const entry of page.entries) {
          if (mountNames.has(entry.name)) continue; // shadowed by a nested mount
          const path = fromSubPath(target.row.mount_path, entry.path);
          if (shows && !shows(path, entry.isLink)) continue;
          if (entry.isDirectory && !entry.isLink) subdirs.push(path);
          yield {
            path,
            isDirectory: entry.isDirectory,
            size: entry.size,
            modified: entry.modified,
            contentType: entry.contentType,
            target: { ...target, path, subPath: entry.path },
          };
        }
        cursor = page.nextCursor;
      } while (cursor);
    }
    for (const child of children) {
      subdirs.push(child.path);
      const childTarget = child.mount ? await mounts.resolve(child.path, actor.principal) : null;
      yield {
        path: child.path,
        isDirectory: true,
        size: 0,
        modified: null,
        contentType: null,
        target: childTarget,
      };
    }
    stack.push(...subdirs.reverse());
  }
}
