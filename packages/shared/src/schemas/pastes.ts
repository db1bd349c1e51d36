import { z } from "zod";
import { SHARE_PASSWORD_MAX } from "../share-rules";
import { onFirstUse } from "./on-first-use";
import { shareOptionsEdit, slugInput } from "./share-options";

/** The share options a paste takes (its link suffix has fields of its own: slug, new_slug). */
const pasteFields = () =>
  shareOptionsEdit
    .unwrap()
    .pick({ remark: true, password: true, expires_at: true, max_views: true, no_log: true }).shape;

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
