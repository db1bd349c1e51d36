/** Rows written straight into the database, for tests that set up what the routes would not. */
import type { PasteRow } from "../../src/db/schema";

/** A plain paste (no password, limits or expiry) by `createdBy`, made now. */
export function pasteRow(slug: string, createdBy: string, extra: Partial<PasteRow> = {}): PasteRow {
  const now = new Date().toISOString();
  return {
    id: `id-${slug}`,
    slug,
    content: `content of ${slug}`,
    remark: null,
    password_hash: null,
    expires_at: null,
    max_views: null,
    views: 0,
    encrypted: 0,
    created_by: createdBy,
    owner_id: null,
    created_at: now,
    updated_at: now,
    no_log: 0,
    ...extra,
  };
}
