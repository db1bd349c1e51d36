import { SEARCH_MIN_LENGTH } from "@clipshare/shared";
import type { PasteRow } from "../pastes/api/pastes";

/** Spec §5: a search needs at least two characters; fewer means "no search". */
export function effectiveSearch(input: string): string | undefined {
  const q = input.trim();
  return q.length >= SEARCH_MIN_LENGTH ? q : undefined;
}

export type StatusFilter = "all" | "active" | "expired";

export function expiredParam(filter: StatusFilter): boolean | undefined {
  return filter === "all" ? undefined : filter === "expired";
}

/** Who made a paste: the administrator, or an API key (by name while it exists). */
export function creatorOf(
  row: Pick<PasteRow, "created_by" | "key_name">,
): { kind: "admin" } | { kind: "apiKey"; name: string | null; id: string } {
  if (row.created_by.startsWith("apikey:")) {
    return { kind: "apiKey", name: row.key_name, id: row.created_by.slice("apikey:".length) };
  }
  return { kind: "admin" };
}

/** "3 / 10", or "3 / ∞" when unlimited. */
export function viewsText(row: Pick<PasteRow, "views" | "max_views">): string {
  return `${row.views} / ${row.max_views && row.max_views > 0 ? row.max_views : "∞"}`;
}

/** Items shown on a page: "11–20" of the total. */
export function pageRange(page: number, limit: number, count: number): { from: number; to: number } {
  if (count === 0) return { from: 0, to: 0 };
  const from = (page - 1) * limit + 1;
  return { from, to: from + count - 1 };
}
