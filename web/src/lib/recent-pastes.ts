import type { CreatedPaste } from "@clipshare/shared";
import { useSyncExternalStore } from "react";
import { readJson, writeJson } from "./storage";

/**
 * The last pastes created in this browser, kept in localStorage so their links stay in
 * reach after the result card is gone. End-to-end encrypted pastes are never kept: their
 * key is part of the link and must not sit in storage. A deliberate sign-out clears it.
 */

export interface RecentPaste {
  slug: string;
  created_at: string;
  expires_at: string | null;
  has_password: boolean;
}

const KEY = "recent_pastes";
export const RECENT_PASTES_KEPT = 5;

/** An entry as stored; the release before this one wrote createdAt, expiresAt and hasPassword. */
type StoredRecentPaste = Partial<RecentPaste> & {
  createdAt?: string;
  expiresAt?: string | null;
  hasPassword?: boolean;
};

function fromStored(value: unknown): RecentPaste | null {
  const v = value as StoredRecentPaste | null;
  const created = v?.created_at ?? v?.createdAt;
  if (typeof v?.slug !== "string" || typeof created !== "string") return null;
  return {
    slug: v.slug,
    created_at: created,
    expires_at: v.expires_at ?? v.expiresAt ?? null,
    has_password: v.has_password ?? v.hasPassword ?? false,
  };
}

function read(): RecentPaste[] {
  const stored = readJson<unknown>(KEY);
  if (!Array.isArray(stored)) return [];
  return stored
    .map(fromStored)
    .filter((p): p is RecentPaste => p !== null)
    .slice(0, RECENT_PASTES_KEPT);
}

let snapshot: RecentPaste[] | null = null;
const listeners = new Set<() => void>();

function write(next: RecentPaste[]): void {
  writeJson(KEY, next.length > 0 ? next : null);
  snapshot = next;
  for (const l of listeners) l();
}

export const recentPastes = {
  list: (): RecentPaste[] => {
    snapshot ??= read();
    return snapshot;
  },
  /** Newest first; the same slug again moves to the top. */
  remember(
    paste: Pick<CreatedPaste, "slug" | "created_at" | "expires_at" | "has_password" | "encrypted">,
  ): void {
    if (paste.encrypted) return;
    const entry: RecentPaste = {
      slug: paste.slug,
      created_at: paste.created_at,
      expires_at: paste.expires_at,
      has_password: paste.has_password,
    };
    write([entry, ...recentPastes.list().filter((p) => p.slug !== paste.slug)].slice(0, RECENT_PASTES_KEPT));
  },
  clear: (): void => write([]),
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

export function useRecentPastes(): RecentPaste[] {
  return useSyncExternalStore(recentPastes.subscribe, recentPastes.list, recentPastes.list);
}
