import { z } from "zod";
import { looseInt } from "./common";
import { filenameInput, uploadOptions } from "./files";
import { partPlanProblem } from "./multipart";
import { onFirstUse } from "./on-first-use";

/** The remote URL of a URL upload; deeper checks (scheme, addresses) happen on the server. */
export const remoteUrlInput = onFirstUse(() =>
  z
    .string({ error: "Missing URL parameter" })
    .trim()
    .min(1, "Missing URL parameter")
    .max(8192, "URL is too long"),
);

export const urlInfoRequest = onFirstUse(() => z.object({ url: remoteUrlInput }));

/** What the client already knows about the remote file (from url/info); used only when complete. */
const remoteMetadata = onFirstUse(() =>
  z
    .object({
      filename: z.string().max(1000).nullable().optional(),
      contentType: z.string().max(255).nullable().optional(),
      size: z.number().int().min(0).nullable().optional(),
    })
    .nullable()
    .optional(),
);

export const urlPresignRequest = onFirstUse(() =>
  uploadOptions.unwrap().extend({
    url: remoteUrlInput,
    s3_config_id: z
      .string({ error: "Missing S3 config ID parameter" })
      .min(1, "Missing S3 config ID parameter")
      .max(100),
    metadata: remoteMetadata,
    filename: filenameInput.optional(),
  }),
);

/**
 * POST /url/multipart/init: the browser downloads the remote file and uploads
 * it in parts. The part plan is required (a missing one is refused, never
 * guessed); the size comes from `total_size`, else `metadata.size`, else the
 * remote server.
 */
export const urlMultipartInitRequest = onFirstUse(() =>
  urlPresignRequest
    .unwrap()
    .extend({
      total_size: looseInt.refine((v) => v >= 1, "total_size must be a positive number of bytes").optional(),
      part_size: looseInt.refine((v) => v >= 1, "part_size must be a positive number of bytes"),
      part_count: looseInt,
    })
    .superRefine((v, ctx) => {
      const size = v.total_size ?? v.metadata?.size;
      const problem = size ? partPlanProblem(size, v.part_size, v.part_count) : null;
      if (problem) ctx.addIssue({ code: "custom", message: problem, path: ["part_count"] });
    }),
);

export const urlCancelRequest = onFirstUse(() =>
  z.object({
    file_id: z.string({ error: "Missing file ID parameter" }).min(1, "Missing file ID parameter").max(100),
  }),
);

/**
 * "Fetch on the server": the remote file becomes a file share (share fields
 * as for uploads), or, with `target_path`, a file in that explorer directory.
 */
export const urlFetchRequest = onFirstUse(() =>
  uploadOptions.unwrap().extend({
    url: remoteUrlInput,
    filename: filenameInput.optional(),
    target_path: z.string().trim().min(1).max(2048).optional(),
  }),
);
