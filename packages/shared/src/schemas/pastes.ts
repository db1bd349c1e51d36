import { z } from "zod";
import {
  MAX_VIEWS_MAX,
  MAX_VIEWS_PROBLEM,
  REMARK_MAX,
  SHARE_PASSWORD_MAX,
  slugProblem,
} from "../share-rules";
import { looseBoolean, looseInt } from "./common";
import { onFirstUse } from "./on-first-use";

export const slugInput = onFirstUse(() =>
  z
    .string()
    .trim()
    .superRefine((v, ctx) => {
      const problem = slugProblem(v);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    }),
);

/** "" and null mean "no value"; anything else must parse as a date. */
export const optionalTimestamp = onFirstUse(() =>
  z.union([z.string(), z.null()]).transform((value, ctx) => {
    if (value === null || value.trim() === "") return null;
    const time = Date.parse(value);
    if (Number.isNaN(time)) {
      ctx.addIssue({ code: "custom", message: "Invalid expiry time" });
      return z.NEVER;
    }
    return new Date(time).toISOString();
  }),
);

export const maxViewsInput = onFirstUse(() =>
  z
    .union([looseInt, z.null()], { error: MAX_VIEWS_PROBLEM })
    .refine((v) => v === null || (v >= 0 && v <= MAX_VIEWS_MAX), MAX_VIEWS_PROBLEM)
    .transform((v) => (v === null || v === 0 ? null : v)),
);

const pasteFields = () => ({
  remark: z.string().max(REMARK_MAX, `Remark may be at most ${REMARK_MAX} characters`).nullable().optional(),
  password: z.string().max(SHARE_PASSWORD_MAX).nullable().optional(),
  expires_at: optionalTimestamp.optional(),
  max_views: maxViewsInput.optional(),
  /** Count views but keep no access log for this share (absent: logged). */
  no_log: looseBoolean.optional(),
});

export const createPasteRequest = onFirstUse(() =>
  z.object({
    content: z
      .string({ error: "Content cannot be empty" })
      .refine((v) => v.trim().length > 0, "Content cannot be empty"),
    slug: z
      .union([slugInput, z.literal(""), z.null()])
      .optional()
      .transform((v) => v || undefined),
    /**
     * The content is an end-to-end encrypted stream (base64url) sealed in the
     * browser; its key stays in the link. Such a paste takes no server password.
     */
    encrypted: z.boolean().optional(),
    ...pasteFields(),
  }),
);
export type CreatePasteRequest = z.input<typeof createPasteRequest>;

export const updatePasteRequest = onFirstUse(() =>
  z.object({
    content: z
      .string()
      .refine((v) => v.trim().length > 0, "Content cannot be empty")
      .optional(),
    clear_password: z.boolean().optional(),
    /** New slug; "" or null asks for a new random one. */
    new_slug: z.union([slugInput, z.literal(""), z.null()]).optional(),
    ...pasteFields(),
  }),
);
export type UpdatePasteRequest = z.input<typeof updatePasteRequest>;

export const pastePasswordRequest = onFirstUse(() =>
  z.object({
    password: z
      .string({ error: "Please provide a password" })
      .min(1, "Please provide a password")
      .max(SHARE_PASSWORD_MAX),
  }),
);

export const idListRequest = onFirstUse(() =>
  z.object({
    ids: z
      .array(z.union([z.string().min(1).max(200), z.number().transform(String)]), {
        error: "Please provide a valid ID array",
      })
      .min(1, "Please provide a valid ID array")
      .max(1000, "At most 1000 ids at once"),
  }),
);
