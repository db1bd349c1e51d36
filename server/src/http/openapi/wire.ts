/**
 * What a route description's builder gets as `w` (route-doc.ts): the shared wire
 * schemas, and the few shapes the API repeats. Loaded with the OpenAPI document only.
 */
import { z } from "zod";

export * from "@clipshare/shared";
export { z };

export const list = <T extends z.ZodType>(schema: T) => z.array(schema);
export const counted = (field: string) => z.strictObject({ [field]: z.number() });
export const pageQuery = z.object({
  limit: z.number().optional(),
  offset: z.number().optional(),
  page: z.number().optional(),
  search: z.string().optional(),
});
