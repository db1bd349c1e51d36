import { z } from "zod";
import {
  DISPLAY_NAME_MAX,
  INVITATION_DEFAULT_HOURS,
  INVITATION_MAX_HOURS,
  ROLES,
  USERNAME_PATTERN,
} from "../accounts";
import { ADMIN_PASSWORD_MIN } from "./admin";
import { basePathInput, permissionsInput } from "./api-keys";
import { hasControlCharacters, looseBoolean, looseInt } from "./common";
import { onFirstUse } from "./on-first-use";

/** Request bodies of the account routes (own account, users, invitations). */

const username = onFirstUse(() =>
  z
    .string({ error: "Username is required" })
    .trim()
    .refine(
      (v) => USERNAME_PATTERN.test(v),
      "Username may use letters, digits and _ . @ - (1-64 characters)",
    ),
);

const password = onFirstUse(() =>
  z
    .string({ error: "Password is required" })
    .min(ADMIN_PASSWORD_MIN, `Password must be at least ${ADMIN_PASSWORD_MIN} characters`)
    .max(1024),
);

const displayName = onFirstUse(() =>
  z
    .string()
    .trim()
    .max(DISPLAY_NAME_MAX, `Display name may be at most ${DISPLAY_NAME_MAX} characters`)
    .refine((v) => !hasControlCharacters(v), "Display name contains invalid characters")
    .nullish()
    .transform((v) => (v === "" || v === undefined ? null : v)),
);

/** The address a first single sign-on matches (stored lower-case); null or "" clears it. */
const email = onFirstUse(() =>
  z
    .union([
      z.string().trim().toLowerCase().max(320).email("Enter an e-mail address"),
      z.literal(""),
      z.null(),
    ])
    .transform((v) => (v ? v : null)),
);

const role = onFirstUse(() => z.enum(ROLES, { error: "Role must be admin, user or guest" }));

/** Bytes, or null for no limit. */
const quotaBytes = onFirstUse(() =>
  z
    .number({ error: "A quota is a number of bytes, or null for none" })
    .int("A quota is a whole number of bytes")
    .min(0, "A quota cannot be negative")
    .max(Number.MAX_SAFE_INTEGER)
    .nullable(),
);

/** Quotas on single storage configs; null removes the one on that config. */
const storageQuotas = onFirstUse(() =>
  z
    .array(z.object({ storage_config_id: z.string().trim().min(1).max(100), quota_bytes: quotaBytes }))
    .max(100),
);

/** POST /admin/users: an account made by an administrator, with its first password. */
export const createUserRequest = onFirstUse(() =>
  z.object({
    username,
    password,
    display_name: displayName.optional(),
    email: email.optional(),
    role: role.optional().default("user"),
    permissions: permissionsInput.optional(),
    base_path: basePathInput.optional().default("/"),
    quota_bytes: quotaBytes.optional(),
    storage_quotas: storageQuotas.optional(),
  }),
);
export type CreateUserRequest = z.input<typeof createUserRequest>;

/** PUT /admin/users/:id: any of role, grant, display name, disabled, a new password. */
export const updateUserRequest = onFirstUse(() =>
  z.object({
    display_name: displayName.optional(),
    email: email.optional(),
    role: role.optional(),
    permissions: permissionsInput.optional(),
    base_path: basePathInput.optional(),
    disabled: looseBoolean.optional(),
    password: password.optional(),
    quota_bytes: quotaBytes.optional(),
    storage_quotas: storageQuotas.optional(),
  }),
);
export type UpdateUserRequest = z.input<typeof updateUserRequest>;

/** DELETE /admin/users/:id?transfer_to=: whose the deleted user's shares, requests and tasks become. */
export const deleteUserQuery = onFirstUse(() =>
  z.object({ transfer_to: z.string().trim().min(1).max(100).optional() }),
);

/** POST /admin/invitations: a one-time sign-up link with the role and grant the new user gets. */
export const createInvitationRequest = onFirstUse(() =>
  z.object({
    role: role.optional().default("user"),
    permissions: permissionsInput.optional(),
    base_path: basePathInput.optional().default("/"),
    note: z.string().trim().max(200).nullish(),
    expires_in_hours: looseInt
      .refine(
        (v) => v >= 1 && v <= INVITATION_MAX_HOURS,
        `An invitation lives 1 to ${INVITATION_MAX_HOURS} hours`,
      )
      .optional()
      .default(INVITATION_DEFAULT_HOURS),
  }),
);
export type CreateInvitationRequest = z.input<typeof createInvitationRequest>;

/** POST /invitations/:token/accept: the new user's name and password. */
export const acceptInvitationRequest = onFirstUse(() =>
  z.object({ username, password, display_name: displayName.optional() }),
);
export type AcceptInvitationRequest = z.input<typeof acceptInvitationRequest>;

/** PUT /account: what users change about themselves besides the password. */
export const updateAccountRequest = onFirstUse(() => z.object({ display_name: displayName }));
export type UpdateAccountRequest = z.input<typeof updateAccountRequest>;
