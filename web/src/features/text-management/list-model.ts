import type { PasteRow } from "../../lib/pastes/api";

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
