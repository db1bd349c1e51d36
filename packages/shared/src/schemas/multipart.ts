import { z } from "zod";
import { MULTIPART_MAX_PARTS, MULTIPART_PART_SIZE } from "../constants";
import { looseInt } from "./common";
import { filenameInput, shareOptionsUpdate, uploadOptions } from "./files";
import { multipartPartEtag } from "./fs";
import { onFirstUse } from "./on-first-use";

/** S3's part size limit, which LOCAL storage keeps too. */
export const MULTIPART_MAX_PART_BYTES = 5 * 1024 ** 3;

/**
 * Why a client's split of `totalSize` bytes is unusable, or null when it is
 * fine: every part but the last at least 5 MiB, at most 10,000 parts, and the
 * parts cover the file exactly (no part left empty).
 */
export function partPlanProblem(totalSize: number, partSize: number, partCount: number): string | null {
  if (partCount < 1 || partCount > MULTIPART_MAX_PARTS)
    return `part_count must be between 1 and ${MULTIPART_MAX_PARTS}`;
  if (partSize < 1 || partSize > MULTIPART_MAX_PART_BYTES) return "part_size must be 1 byte to 5 GiB";
  if (partCount > 1 && partSize < MULTIPART_PART_SIZE)
    return `part_size must be at least ${MULTIPART_PART_SIZE} bytes (5 MiB) when there is more than one part`;
  if (partSize * partCount < totalSize) return "part_size × part_count is smaller than total_size";
  if (partSize * (partCount - 1) >= totalSize) return "part_count is larger than total_size needs";
  return null;
}

const byteCount = (field: string) =>
  looseInt.refine((v) => v >= 1, `${field} must be a positive number of bytes`);

/** POST /files/multipart/init: a file share uploaded in parts (the same shape as url/multipart/init). */
export const shareMultipartInitRequest = onFirstUse(() =>
  uploadOptions
    .unwrap()
    .extend({
      filename: filenameInput,
      total_size: byteCount("total_size"),
      part_size: byteCount("part_size"),
      part_count: looseInt,
      /**
       * An end-to-end encrypted upload: the sealed name and type (base64url). The
       * share is then stored as "encrypted.bin", application/octet-stream.
       */
      encrypted_meta: z
        .string()
        .max(8192, "encrypted_meta may be at most 8192 characters")
        .regex(/^[A-Za-z0-9_-]+$/, "encrypted_meta must be base64url")
        .optional(),
    })
    .superRefine((v, ctx) => {
      const problem = partPlanProblem(v.total_size, v.part_size, v.part_count);
      if (problem) ctx.addIssue({ code: "custom", message: problem, path: ["part_count"] });
    }),
);

/** Names one share multipart upload (resume, abort). */
export const shareMultipartRef = onFirstUse(() =>
  z.object({
    file_id: z.string({ error: "Missing file ID parameter" }).min(1, "Missing file ID parameter").max(100),
    upload_id: z
      .string({ error: "Missing upload ID parameter" })
      .min(1, "Missing upload ID parameter")
      .max(1024),
  }),
);

export const shareMultipartCompleteRequest = onFirstUse(() =>
  shareMultipartRef.unwrap().extend({
    ...shareOptionsUpdate.unwrap().shape,
    parts: z
      .array(multipartPartEtag, { error: "Missing part list parameter" })
      .min(1, "Missing part list parameter")
      .max(MULTIPART_MAX_PARTS),
  }),
);
