import type { TextFormat } from "../../lib/markdown/detect";

/**
 * The Home editor's draft, kept in this browser's localStorage so a reload or
 * a closed tab loses nothing. Passwords are never stored.
 */

export const DRAFT_STORAGE_KEY = "clipshare_paste_draft";
/** localStorage holds about 5 MB of UTF-16; larger drafts are not kept. */
export const DRAFT_MAX_CHARS = 2_000_000;

export interface PasteDraft {
  content: string;
  format: TextFormat;
  remark: string;
  /** Epoch ms. */
  savedAt: number;
}

export type DraftStore = Pick<Storage, "getItem" | "setItem" | "removeItem">;

export type SaveResult = "saved" | "cleared" | "tooLarge" | "failed";

function browserStore(): DraftStore | null {
  try {
    return typeof localStorage === "undefined" ? null : localStorage;
  } catch {
    return null;
  }
}

export function loadDraft(store: DraftStore | null = browserStore()): PasteDraft | null {
  let raw: string | null = null;
  try {
    raw = store?.getItem(DRAFT_STORAGE_KEY) ?? null;
  } catch {
    return null;
  }
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as Partial<PasteDraft> | null;
    if (!value || typeof value.content !== "string" || value.content.length === 0) return null;
    return {
      content: value.content,
      format: value.format === "markdown" ? "markdown" : "plain",
      remark: typeof value.remark === "string" ? value.remark : "",
      savedAt: typeof value.savedAt === "number" && Number.isFinite(value.savedAt) ? value.savedAt : 0,
    };
  } catch {
    return null;
  }
}

export function clearDraft(store: DraftStore | null = browserStore()): void {
  try {
    store?.removeItem(DRAFT_STORAGE_KEY);
  } catch {
    // Blocked storage: nothing was kept either.
  }
}

/** Keeps the draft; an empty text removes it. */
export function saveDraft(
  draft: Omit<PasteDraft, "savedAt">,
  now = Date.now(),
  store: DraftStore | null = browserStore(),
): SaveResult {
  if (draft.content.length === 0) {
    clearDraft(store);
    return "cleared";
  }
  if (draft.content.length > DRAFT_MAX_CHARS) {
    // An older, smaller draft would come back on reload in place of this text: drop it.
    clearDraft(store);
    return "tooLarge";
  }
  if (!store) return "failed";
  try {
    store.setItem(DRAFT_STORAGE_KEY, JSON.stringify({ ...draft, savedAt: now } satisfies PasteDraft));
    return "saved";
  } catch {
    clearDraft(store);
    return "failed";
  }
}
