import { SEARCH_MIN_LENGTH } from "@clipshare/shared";

/** A search needs at least two characters; fewer means "no search" (the server refuses them). */
export function effectiveSearch(input: string): string | undefined {
  const q = input.trim();
  return q.length >= SEARCH_MIN_LENGTH ? q : undefined;
}

/** True while the box holds too little to search with, so the list can say why nothing filters. */
export function searchTooShort(input: string): boolean {
  const length = input.trim().length;
  return length > 0 && length < SEARCH_MIN_LENGTH;
}

/** Items shown on a page: "11–20" of the total. */
export function pageRange(page: number, limit: number, count: number): { from: number; to: number } {
  if (count === 0) return { from: 0, to: 0 };
  const from = (page - 1) * limit + 1;
  return { from, to: from + count - 1 };
}

/** Pages needed for `total` items, at least one (an empty list is one empty page). */
export function pageCount(total: number, limit: number): number {
  return Math.max(1, Math.ceil(total / limit));
}
