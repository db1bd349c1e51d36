/** Ordering of directory entries: directories first, then by the chosen key. Pure. */

export type SortKey = "name" | "size" | "modified";
export type SortDir = "asc" | "desc";

export interface Sortable {
  name: string;
  isDirectory: boolean;
  size: number;
  modified: string | null;
}

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: "base" });

export function compareEntries(a: Sortable, b: Sortable, key: SortKey, dir: SortDir): number {
  if (a.isDirectory !== b.isDirectory) return a.isDirectory ? -1 : 1;
  let result = 0;
  if (key === "size") result = a.size - b.size;
  else if (key === "modified")
    result = (Date.parse(a.modified ?? "") || 0) - (Date.parse(b.modified ?? "") || 0);
  if (result === 0) result = collator.compare(a.name, b.name);
  return dir === "asc" ? result : -result;
}

export function sortEntries<T extends Sortable>(entries: readonly T[], key: SortKey, dir: SortDir): T[] {
  return [...entries].sort((a, b) => compareEntries(a, b, key, dir));
}

/** Clicking the active column flips it; another column starts ascending. */
export function nextSort(
  current: { key: SortKey; dir: SortDir },
  key: SortKey,
): { key: SortKey; dir: SortDir } {
  if (current.key === key) return { key, dir: current.dir === "asc" ? "desc" : "asc" };
  return { key, dir: "asc" };
}
