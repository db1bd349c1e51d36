/**
 * The shape of the OpenAPI table: each /api route with the shared schemas of
 * what it takes and what it answers in `data`. The table itself is split by
 * area (admin-, share- and fs-operations.ts); the document is built from it,
 * and a test checks that it names exactly the routes the app registers.
 */
import { z } from "zod";

export type Access = "public" | "admin" | "key";

export interface Operation {
  summary: string;
  tag: string;
  /** Who may call it: anyone, the administrator, or a signed-in caller (admin or an API key with the bit). */
  access: Access;
  query?: z.ZodType;
  body?: z.ZodType;
  /** The body is a file (raw bytes or a multipart form), not JSON. */
  upload?: "raw" | "form";
  /** The schema of `data` in the JSON envelope; absent for an answer whose `data` is null. */
  data?: z.ZodType;
  /** The answer is the file itself (plain text, a JSON document, a WebP image) or a page, not the JSON envelope. */
  file?: "bytes" | "text" | "json" | "html" | "image";
}

export const list = <T extends z.ZodType>(schema: T) => z.array(schema);
export const counted = (field: string) => z.strictObject({ [field]: z.number() });
export const pageQuery = z.object({
  limit: z.number().optional(),
  offset: z.number().optional(),
  page: z.number().optional(),
  search: z.string().optional(),
});
