import type { PasteRow } from "../../lib/pastes/api";

export type StatusFilter = "all" | "active" | "expired";

export function expiredParam(filter: StatusFilter): boolean | undefined {
  return filter === "all" ? undefined : filter === "expired";
}

/**
 * Whose a paste is and what made it: the owner's name (null from a server without accounts),
 * and the API key that made it (by name while it exists), if a key did.
 */
export function creatorOf(row: Pick<PasteRow, "created_by" | "key_name"> & { owner_name?: string | null }): {
  owner: string | null;
  key: { name: string | null; id: string } | null;
} {
  const key = row.created_by.startsWith("apikey:")
    ? { name: row.key_name, id: row.created_by.slice("apikey:".length) }
    : null;
  return { owner: row.owner_name ?? null, key };
}

/** "3 / 10", or "3 / ∞" when unlimited. */
export function viewsText(row: Pick<PasteRow, "views" | "max_views">): string {
  return `${row.views} / ${row.max_views && row.max_views > 0 ? row.max_views : "∞"}`;
}
