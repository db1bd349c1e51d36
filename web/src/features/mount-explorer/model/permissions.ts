import { hasAnyPermission, hasPermission, MOUNT_ANY, Permission } from "@clipshare/shared";

/**
 * What the signed-in principal may change in the explorer, from its
 * permission bits (an administrator has them all). The explorer offers only
 * these actions, so a key learns its limits from what it sees rather than from
 * a refused request. Viewing, downloading and links need only the view bit,
 * which every explorer user has; a share also needs the file-share bit.
 */
export interface ExplorerPermissions {
  /** New folder, upload (picker and drop), saving an edited file. */
  upload: boolean;
  copy: boolean;
  /** Rename, and move (a move is a rename to another folder). */
  rename: boolean;
  delete: boolean;
  /** Share: publishing a file as a file share takes the file-share permission too. */
  share: boolean;
  /** Has server-side tasks to follow (a visitor without credentials has none). */
  tasks: boolean;
}

export function explorerPermissions(mask: number): ExplorerPermissions {
  return {
    upload: hasPermission(mask, Permission.MOUNT_UPLOAD),
    copy: hasPermission(mask, Permission.MOUNT_COPY),
    rename: hasPermission(mask, Permission.MOUNT_RENAME),
    delete: hasPermission(mask, Permission.MOUNT_DELETE),
    share: hasPermission(mask, Permission.FILE_SHARE),
    tasks: hasAnyPermission(mask, MOUNT_ANY | Permission.FILE_SHARE),
  };
}
