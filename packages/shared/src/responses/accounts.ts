import { z } from "zod";
import { ROLES } from "../accounts";

/** What the account routes answer in `data`. */

const nullableString = z.string().nullable();

/** A user as the administrator lists them, and as GET /account answers for oneself. */
export const user = z.strictObject({
  id: z.string(),
  username: z.string(),
  display_name: nullableString,
  /** The address a first single sign-on matches. */
  email: nullableString,
  role: z.enum(ROLES),
  /** The grant (meaningless for administrators, who hold every bit everywhere). */
  permissions: z.number(),
  base_path: z.string(),
  disabled: z.boolean(),
  /** A confirmed second factor (TOTP): signing in asks for a code, and an administrator may reset it. */
  two_factor: z.boolean(),
  /** Bytes everything they own may take (null: no limit), and what it takes now. */
  quota_bytes: z.number().nullable(),
  used_bytes: z.number(),
  /** Quotas on single storage configs, each with what is used there. */
  storage_quotas: z.array(
    z.strictObject({ storage_config_id: z.string(), quota_bytes: z.number(), used_bytes: z.number() }),
  ),
  last_login_at: nullableString,
  created_at: z.string(),
  updated_at: z.string(),
});
export type UserDto = z.infer<typeof user>;

/** GET /admin/users. */
export const userList = z.strictObject({ users: z.array(user), total: z.number() });

/** A signed-in browser or client of the caller. */
export const session = z.strictObject({
  id: z.string(),
  user_agent: nullableString,
  client_ip: nullableString,
  created_at: z.string(),
  last_seen_at: nullableString,
  expires_at: z.string(),
  /** The session this request was made with. */
  current: z.boolean(),
});
export type SessionDto = z.infer<typeof session>;

export const sessionList = z.strictObject({ sessions: z.array(session) });

/** An invitation as listed; `token` only in the answer that created it. */
export const invitation = z.strictObject({
  id: z.string(),
  role: z.enum(ROLES),
  permissions: z.number(),
  base_path: z.string(),
  note: nullableString,
  created_by: z.string(),
  expires_at: z.string(),
  accepted_at: nullableString,
  accepted_by: nullableString,
  created_at: z.string(),
  /** pending (usable), accepted or expired. */
  status: z.enum(["pending", "accepted", "expired"]),
});
export type InvitationDto = z.infer<typeof invitation>;

export const createdInvitation = invitation.extend({
  token: z.string(),
  /** The sign-up page to send, relative to the web app (/invite/<token>). */
  path: z.string(),
});
export type CreatedInvitation = z.infer<typeof createdInvitation>;

export const invitationList = z.strictObject({ invitations: z.array(invitation) });

/** GET /invitations/:token: what the sign-up page shows before the visitor accepts. */
export const invitationPreview = z.strictObject({
  role: z.enum(ROLES),
  expires_at: z.string(),
  note: nullableString,
});
