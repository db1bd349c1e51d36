import { z } from "zod";
import { onFirstUse } from "./on-first-use";

/** A boolean that also accepts 0/1 and "true"/"false" (0.7.3 clients send all three). */
export const looseBoolean = onFirstUse(() =>
  z.union([
    z.boolean(),
    z.literal(0).transform(() => false),
    z.literal(1).transform(() => true),
    z.enum(["true", "false", "0", "1"]).transform((v) => v === "true" || v === "1"),
  ]),
);

/** Integer that may arrive as a numeric string (query strings, form fields). */
export const looseInt = onFirstUse(() =>
  z
    .union([
      z.number(),
      z
        .string()
        .trim()
        .regex(/^-?\d+$/)
        .transform(Number),
    ])
    .pipe(z.number().int()),
);

/** True when the text holds an ASCII control character (C0 or DEL), which no name or path may contain. */
export function hasControlCharacters(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}
