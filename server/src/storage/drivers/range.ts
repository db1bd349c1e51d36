import { invalidRange, rangeNotSatisfiable } from "../errors";
import type { ReadRange } from "../types";

export interface ResolvedRange {
  start: number;
  /** Inclusive; -1 for an empty object read whole. */
  end: number;
  contentLength: number;
  /** False when the caller asked for no range; the whole object is served. */
  partial: boolean;
}

const isOffset = (n: number | undefined): n is number => n !== undefined && Number.isSafeInteger(n) && n >= 0;

/**
 * Applies HTTP byte-range rules (RFC 9110 §14.1.2) to an object of `size`
 * bytes: an `end` past the last byte is clamped, a `start` at or past the end
 * (or any range on an empty object) is 416.
 */
export function resolveRange(size: number, range?: ReadRange): ResolvedRange {
  if (!range || (range.start === undefined && range.end === undefined && range.suffix === undefined)) {
    return { start: 0, end: size - 1, contentLength: size, partial: false };
  }
  if (range.suffix !== undefined) {
    if (!isOffset(range.suffix) || range.start !== undefined || range.end !== undefined) {
      throw invalidRange();
    }
    if (range.suffix === 0 || size === 0) throw rangeNotSatisfiable(size);
    const start = Math.max(0, size - range.suffix);
    return { start, end: size - 1, contentLength: size - start, partial: true };
  }
  const start = range.start ?? 0;
  if (!isOffset(start) || (range.end !== undefined && !isOffset(range.end))) throw invalidRange();
  if (range.end !== undefined && range.end < start) throw invalidRange();
  if (start >= size) throw rangeNotSatisfiable(size);
  const end = Math.min(range.end ?? size - 1, size - 1);
  return { start, end, contentLength: end - start + 1, partial: true };
}

/** The HTTP Range header value for a range, for backends that take one. */
export function rangeHeader(range?: ReadRange): string | undefined {
  if (!range) return undefined;
  if (range.suffix !== undefined) return `bytes=-${range.suffix}`;
  if (range.start === undefined && range.end === undefined) return undefined;
  return `bytes=${range.start ?? 0}-${range.end ?? ""}`;
}
