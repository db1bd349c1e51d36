import { z } from "zod";
import { KEY_ROLES } from "../constants";
import { isValidPermissionMask, maskFromFlags } from "../permissions";
import { hasControlCharacters, looseBoolean } from "./common";
import { onFirstUse } from "./on-first-use";

export const CUSTOM_KEY_PATTERN = /^[A-Za-z0-9_-]+$/;
export const CUSTOM_KEY_MIN = 8;
export const CUSTOM_KEY_MAX = 128;
export const KEY_NAME_MAX = 64;
export const BASE_PATH_MAX = 1024;

const flagObject = onFirstUse(() =>
  z.object({
    text: z.boolean().optional(),
    file_share: z.boolean().optional(),
    file: z.boolean().optional(),
    mount_view: z.boolean().optional(),
    mount_upload: z.boolean().optional(),
    mount_copy: z.boolean().optional(),
    mount_rename: z.boolean().optional(),
    mount_delete: z.boolean().optional(),
    webdav_read: z.boolean().optional(),
    webdav_manage: z.boolean().optional(),
  }),
);

/** A bitmask number or the flag object. */
export const permissionsInput = onFirstUse(() =>
  z.union([
    z
      .number()
      .refine(
        isValidPermissionMask,
        "Permission value must be a non-negative integer made of known permission bits",
      ),
    flagObject.transform(maskFromFlags),
  ]),
);

/** ISO timestamp, "never" or null (= never expires). */
export const keyExpiryInput = onFirstUse(() =>
  z
    .string({ error: "Invalid expiry time" })
    .nullable()
    .transform((value, ctx) => {
      if (value === null || value === "never") return null;
      const time = Date.parse(value);
      if (Number.isNaN(time)) {
        ctx.addIssue({ code: "custom", message: "Invalid expiry time" });
        return z.NEVER;
      }
      return new Date(time).toISOString();
    }),
);

export const basePathInput = onFirstUse(() =>
  z
    .string()
    .trim()
    .max(BASE_PATH_MAX)
    .refine((v) => v.startsWith("/"), "Base path must start with /")
    .refine(
      (v) => !v.split("/").some((s) => s === ".." || s === "."),
      "Base path may not contain . or .. segments",
    )
    .refine((v) => !hasControlCharacters(v) && !v.includes("\\"), "Base path contains invalid characters"),
);

export const keyNameInput = onFirstUse(() =>
  z
    .string({ error: "Key name cannot be empty" })
    .trim()
    .min(1, "Key name cannot be empty")
    .max(KEY_NAME_MAX, `Key name may be at most ${KEY_NAME_MAX} characters`),
);

export const createApiKeyRequest = onFirstUse(() =>
  z.object({
    name: keyNameInput,
    // The 0.7.3 form sends null (or "") when no custom key was chosen.
    custom_key: z
      .string()
      .trim()
      .nullish()
      .transform((v) => (v === "" || v === null ? undefined : v))
      .refine(
        (v) => v === undefined || CUSTOM_KEY_PATTERN.test(v),
        "Key may only contain letters, digits, hyphen and underscore",
      )
      .refine(
        (v) => v === undefined || (v.length >= CUSTOM_KEY_MIN && v.length <= CUSTOM_KEY_MAX),
        `Custom key must be ${CUSTOM_KEY_MIN}-${CUSTOM_KEY_MAX} characters`,
      ),
    expires_at: keyExpiryInput.optional(),
    permissions: permissionsInput.optional().default(0),
    role: z.enum(KEY_ROLES).optional().default("GENERAL"),
    basic_path: basePathInput.optional().default("/"),
    is_guest: looseBoolean.optional().default(false),
    /** Administrators: the user the key is for (default: themselves). Ignored for users. */
    user_id: z.string().trim().min(1).max(100).optional(),
  }),
);
export type CreateApiKeyRequest = z.input<typeof createApiKeyRequest>;

export const updateApiKeyRequest = onFirstUse(() =>
  z.object({
    name: keyNameInput.optional(),
    expires_at: keyExpiryInput.optional(),
    permissions: permissionsInput.optional(),
    role: z.enum(KEY_ROLES).optional(),
    basic_path: basePathInput.optional(),
    is_guest: looseBoolean.optional(),
  }),
);
export type UpdateApiKeyRequest = z.input<typeof updateApiKeyRequest>;
