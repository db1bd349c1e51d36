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
  createdAt: string;
  expiresAt: string | null;
  hasPassword: boolean;
}

const KEY = "recent_pastes";
export const RECENT_PASTES_KEPT = 5;

function isRecentPaste(value: unknown): value is RecentPaste {
  const v = value as Partial<RecentPaste> | null;
  return typeof v?.slug === "string" && typeof v.createdAt === "string";
}

function read(): RecentPaste[] {
  const stored = readJson<unknown>(KEY);
  return Array.isArray(stored) ? stored.filter(isRecentPaste).slice(0, RECENT_PASTES_KEPT) : [];
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
    paste: Pick<CreatedPaste, "slug" | "createdAt" | "expiresAt" | "hasPassword" | "encrypted">,
  ): void {
    if (paste.encrypted) return;
    const entry: RecentPaste = {
      slug: paste.slug,
      createdAt: paste.createdAt,
      expiresAt: paste.expiresAt,
      hasPassword: paste.hasPassword,
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
