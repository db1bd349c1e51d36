import type { PermissionName } from "@clipshare/shared";

/** Checkbox groups of the permission picker, in display order. */
export const PERMISSION_GROUPS: { id: "sharing" | "mount" | "webdav"; permissions: PermissionName[] }[] = [
  { id: "sharing", permissions: ["TEXT", "FILE_SHARE"] },
  { id: "mount", permissions: ["MOUNT_VIEW", "MOUNT_UPLOAD", "MOUNT_COPY", "MOUNT_RENAME", "MOUNT_DELETE"] },
  { id: "webdav", permissions: ["WEBDAV_READ", "WEBDAV_MANAGE"] },
];
