import { z } from "zod";
import { ROLES } from "../accounts";

/** What the sign-in routes answer in `data`. */

/** POST /admin/login. */
export const adminLogin = z.strictObject({
  username: z.string(),
  token: z.string(),
  expiresAt: z.string(),
  /** Who signed in (0.7.3 clients, which only knew administrators, ignore it). */
  role: z.enum(ROLES),
});
export type AdminLogin = z.infer<typeof adminLogin>;

const flag = z.boolean();
/** Permission bits as named flags (`file` is the 0.7.3 alias of `file_share`). */
export const permissionFlagsResponse = z.strictObject({
  text: flag,
  file_share: flag,
  file: flag,
  mount_view: flag,
  mount_upload: flag,
  mount_copy: flag,
  mount_rename: flag,
  mount_delete: flag,
  webdav_read: flag,
  webdav_manage: flag,
});

/** GET /test/api-key: who the credentials are (an API key, or the administrator's token). */
export const credentialCheck = z.strictObject({
  name: z.string(),
  basic_path: z.string(),
  permissions: permissionFlagsResponse,
  permission_mask: z.number(),
  key_info: z.strictObject({
    id: z.string(),
    name: z.string(),
    basic_path: z.string(),
    permissions: z.number(),
    /** Keys only. */
    role: z.string().optional(),
    is_guest: z.boolean().optional(),
  }),
  is_admin: z.boolean(),
  /** The account behind the credentials (a key's owner); absent from 0.7.3 servers. */
  user: z
    .strictObject({
      id: z.string(),
      username: z.string(),
      role: z.enum(ROLES),
    })
    .optional(),
});
export type CredentialCheck = z.infer<typeof credentialCheck>;
