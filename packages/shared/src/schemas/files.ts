import { z } from "zod";
import { MARKDOWN_EXTENSIONS } from "../constants";
import { SHARE_PASSWORD_MAX } from "../share-rules";
import { hasControlCharacters, looseBoolean, looseInt } from "./common";
import { onFirstUse } from "./on-first-use";
import { shareOptions, shareOptionsEdit } from "./share-options";

export const FILENAME_MAX = 255;

/** Markdown names get text/markdown, else the given type, else application/octet-stream. */
export function uploadMimeType(filename: string, given?: string | null): string {
  const ext = filename.includes(".") ? filename.split(".").pop()!.toLowerCase() : "";
  if (MARKDOWN_EXTENSIONS.includes(ext)) return "text/markdown";
  if (given && /^[\w.+-]+\/[\w.+-]+$/.test(given.trim())) return given.trim().toLowerCase();
  return "application/octet-stream";
}

const emptyToUndefined = (v: unknown) => (v === "" || v === null ? undefined : v);

/** Folder below the config's default folder: relative, no dot segments. */
export const uploadFolderInput = onFirstUse(() =>
  z
    .string()
    .trim()
    .max(512)
    .transform((v) => v.replace(/^\/+|\/+$/g, "").replace(/\/{2,}/g, "/"))
    .refine(
      (v) => !v.split("/").some((s) => s === ".." || s === "."),
      "Path may not contain . or .. segments",
    )
    .refine((v) => !hasControlCharacters(v) && !v.includes("\\"), "Path contains invalid characters"),
);

/** The optional share fields every upload method accepts (sent only if set), and where the file goes. */
export const uploadOptions = onFirstUse(() =>
  shareOptions
    .unwrap()
    .pick({ slug: true, remark: true, password: true, expires_in: true, max_views: true, no_log: true })
    .extend({
      s3_config_id: z.preprocess(emptyToUndefined, z.string().max(100).optional()),
      path: z.preprocess(emptyToUndefined, uploadFolderInput.optional()),
      use_proxy: z.preprocess(emptyToUndefined, looseBoolean.optional()),
      original_filename: z.preprocess(emptyToUndefined, looseBoolean.optional()),
      mimetype: z.preprocess(emptyToUndefined, z.string().max(255).optional()),
    }),
);
export type UploadOptions = z.output<typeof uploadOptions>;

export const filenameInput = onFirstUse(() =>
  z
    .string({ error: "filename is required" })
    .trim()
    .min(1, "filename is required")
    .max(FILENAME_MAX, `filename may be at most ${FILENAME_MAX} characters`)
    .refine(
      (v) => !hasControlCharacters(v) && !/[/\\]/.test(v) && v !== "." && v !== "..",
      "filename contains invalid characters",
    ),
);

export const presignRequest = onFirstUse(() =>
  uploadOptions.unwrap().extend({
    filename: filenameInput,
    size: z.preprocess(
      emptyToUndefined,
      looseInt.refine((v) => v >= 0, "size must be non-negative").optional(),
    ),
  }),
);

/** Share options a commit applies when the client sends them (a password typed at upload must protect the file). */
export const shareOptionsUpdate = onFirstUse(() =>
  uploadOptions.unwrap().pick({
    remark: true,
    password: true,
    expires_in: true,
    max_views: true,
  }),
);
export type ShareOptionsUpdate = z.output<typeof shareOptionsUpdate>;

export const commitRequest = onFirstUse(() =>
  shareOptionsUpdate.unwrap().extend({
    file_id: z.string({ error: "Missing file ID parameter" }).min(1, "Missing file ID parameter").max(100),
    etag: z.string().max(200).nullable().optional(),
    size: z.union([looseInt, z.number()]).nullable().optional(),
  }),
);

export const updateFileRequest = onFirstUse(() =>
  shareOptionsEdit.unwrap().extend({
    use_proxy: looseBoolean.optional(),
    filename: filenameInput.optional(),
  }),
);

export const batchDeleteFilesRequest = onFirstUse(() =>
  z.object({
    ids: z
      .array(z.string().min(1).max(100), { error: "Please provide a valid file ID array" })
      .min(1, "Please provide a valid file ID array")
      .max(1000),
    delete_mode: z
      .enum(["both", "record_only"], { error: "delete_mode must be 'record_only' or 'both'" })
      .optional()
      .default("both"),
  }),
);

export const filePasswordRequest = onFirstUse(() =>
  z.object({
    password: z
      .string({ error: "Password is required" })
      .min(1, "Password is required")
      .max(SHARE_PASSWORD_MAX),
  }),
);

/** Office documents the Microsoft/Google viewers can show. */
export const OFFICE_MIME_TYPES = [
  "application/msword",
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  "application/vnd.ms-excel",
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  "application/vnd.ms-powerpoint",
  "application/vnd.openxmlformats-officedocument.presentationml.presentation",
  "application/rtf",
  "application/vnd.oasis.opendocument.text",
  "application/vnd.oasis.opendocument.spreadsheet",
  "application/vnd.oasis.opendocument.presentation",
];
