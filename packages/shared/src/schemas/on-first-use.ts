import { z } from "zod";

/**
 * A schema built the first time it parses (or is inspected), then kept.
 * Request schemas are many and an idle server needs none of them: building
 * them all at import costs heap and start-up time for nothing. The result is a
 * real zod schema (parse, infer, optional, JSON Schema); to compose an object
 * schema from another, call `.unwrap()` inside the builder.
 */
export function onFirstUse<T extends z.ZodType>(build: () => T): z.ZodLazy<T> {
  return z.lazy(build);
}
