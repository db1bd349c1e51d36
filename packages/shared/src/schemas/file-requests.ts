import { z } from "zod";
import { looseInt } from "./common";
import { filenameInput } from "./files";
import { multipartPartEtag } from "./fs";
import { partPlanProblem } from "./multipart";
import { onFirstUse } from "./on-first-use";
import { slugInput } from "./share-options";

/** Most entries in a request's list of allowed types. */
export const REQUEST_MAX_TYPES = 50;

const positiveInt = (field: string) => looseInt.refine((v) => v >= 1, `${field} must be at least 1`);
const optionalLimit = (field: string) => z.union([positiveInt(field), z.null()]).optional();

/** ".pdf" (an extension) or "image/*", "application/pdf" (a MIME type or family). */
const allowedType = z
  .string()
  .trim()
  .toLowerCase()
  .regex(
    /^(\.[a-z0-9][a-z0-9._+-]{0,30}|[a-z0-9.+-]{1,60}\/(\*|[a-z0-9.+-]{1,80}))$/,
    "Allowed types are extensions like .pdf or MIME types like image/*",
  );

/** The settings a creator gives a request (create and edit share them). */
const requestSettings = {
  title: z.string().trim().min(1, "title is required").max(200, "title may be at most 200 characters"),
  message: z.union([z.string().max(4000, "message may be at most 4000 characters"), z.null()]).optional(),
  max_files: optionalLimit("max_files"),
  max_file_bytes: optionalLimit("max_file_bytes"),
  max_total_bytes: optionalLimit("max_total_bytes"),
  allowed_types: z.union([z.array(allowedType).max(REQUEST_MAX_TYPES), z.null()]).optional(),
  /** Hours from now; null or 0 = never. */
  expires_in: z
    .union([looseInt.refine((v) => v >= 0, "expires_in must not be negative"), z.null()])
    .optional(),
  /** A new password; null or "" removes it. */
  password: z.union([z.string().max(200), z.null()]).optional(),
  show_received: z.boolean().optional(),
};

/** POST /requests: a new file request into a storage config (file shares) or a mount folder. */
export const createFileRequestBody = onFirstUse(() =>
  z
    .object({
      ...requestSettings,
      slug: slugInput.optional(),
      target: z.discriminatedUnion("kind", [
        z.object({ kind: z.literal("share"), storage_config_id: z.string().max(100).optional() }),
        z.object({ kind: z.literal("folder"), path: z.string().min(1).max(4096) }),
      ]),
    })
    .strict(),
);
export type CreateFileRequestBody = z.output<typeof createFileRequestBody>;

/** PUT /requests/:id: any settings, and `status` to close or reopen. */
export const updateFileRequestBody = onFirstUse(() =>
  z
    .object({
      ...requestSettings,
      title: requestSettings.title.optional(),
      status: z.enum(["open", "closed"]).optional(),
    })
    .strict(),
);
export type UpdateFileRequestBody = z.output<typeof updateFileRequestBody>;

/** GET /requests: the creator's list, newest first. */
export const listFileRequestsQuery = onFirstUse(() =>
  z.object({
    limit: z.coerce.number().int().min(1).max(200).optional(),
    offset: z.coerce.number().int().min(0).optional(),
    search: z.string().trim().max(200).optional(),
  }),
);

/** POST /public/requests/:slug/unlock */
export const requestPasswordBody = onFirstUse(() =>
  z.object({ password: z.string({ error: "Please enter the password" }).min(1).max(200) }),
);

/** POST /public/requests/:slug/uploads: one file's part plan, and who sends it. */
export const requestUploadInitBody = onFirstUse(() =>
  z
    .object({
      filename: filenameInput,
      size: positiveInt("size"),
      part_size: positiveInt("part_size"),
      part_count: positiveInt("part_count"),
      mimetype: z.string().max(255).optional(),
      uploader_name: z.string().trim().max(100, "name may be at most 100 characters").optional(),
      note: z.string().trim().max(2000, "note may be at most 2000 characters").optional(),
    })
    .superRefine((v, ctx) => {
      const problem = partPlanProblem(v.size, v.part_size, v.part_count);
      if (problem) ctx.addIssue({ code: "custom", message: problem, path: ["part_count"] });
    }),
);
export type RequestUploadInitBody = z.output<typeof requestUploadInitBody>;

export const requestUploadCompleteBody = onFirstUse(() =>
  z.object({
    parts: z.array(multipartPartEtag, { error: "Missing part list parameter" }).min(1).max(10_000),
  }),
);
