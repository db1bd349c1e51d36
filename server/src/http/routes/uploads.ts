/**
 * The one signed upload URL of this server, PUT /uploads/:session: LOCAL
 * storage's "presigned URL" for a whole file and for each multipart part,
 * whatever the target (file share or mount path). The signature is the
 * credential (domain/uploads/upload-signer.ts).
 */
import { onFirstUse } from "@clipshare/shared";
import { Hono } from "hono";
import { z } from "zod";
import type { AppContext } from "../../context";
import { MAX_PARTS } from "../../domain/uploads/upload-sessions";
import { declaredLength, parseWith, requestStream } from "../body";
import { ok } from "../envelope";
import { described } from "../route-doc";
import type { AppEnv } from "../types";

const MISSING = "Upload URL is missing its signature";

const signedQuery = onFirstUse(() =>
  z
    .object({
      partNumber: z.coerce
        .number({ error: "Invalid part number" })
        .int("Invalid part number")
        .min(1, "Invalid part number")
        .max(MAX_PARTS, "Invalid part number")
        .optional(),
      isLastPart: z.enum(["true", "false"], { error: "isLastPart is true or false" }).optional(),
      expires: z.string({ error: MISSING }).regex(/^\d{1,12}$/, "Invalid expiry"),
      sig: z.string({ error: MISSING }).min(1).max(200),
    })
    .refine((q) => (q.partNumber === undefined) === (q.isLastPart === undefined), {
      message: "A part URL names partNumber and isLastPart",
    }),
);

export function uploadRoutes(ctx: AppContext) {
  const app = new Hono<AppEnv>();

  app.put(
    "/uploads/:session",
    described(
      (w) => ({
        summary:
          "The signed upload URL of LOCAL storage (a whole file, or one part with partNumber and isLastPart)",
        tag: "File shares",
        access: "public",
        errors: [...w.uploadErrors, "invalid_signature", "upload_session_not_found", "invalid_part"],
        upload: "raw",
        data: w.z.unknown(),
      }),
      async (c) => {
        const q = parseWith(signedQuery, c.req.query());
        const result = await ctx.signedUploads.receive(
          c.req.param("session")!,
          {
            part:
              q.partNumber !== undefined
                ? { partNumber: q.partNumber, isLastPart: q.isLastPart === "true" }
                : null,
            expires: Number(q.expires),
            sig: q.sig,
          },
          requestStream(c),
          declaredLength(c.req.header("content-length")),
        );
        if (result.etag) c.header("ETag", `"${result.etag}"`);
        return ok(c, result, q.partNumber !== undefined ? "Part uploaded" : "Uploaded");
      },
    ),
  );

  return app;
}
