/**
 * What a drop holds: files and whole folders. Folders are walked through
 * DataTransferItem.webkitGetAsEntry (readEntries returns at most 100 entries a
 * call, so it is called until it returns none). Structural types, so tests can
 * hand in plain objects.
 */

export interface DroppedFile {
  /** Path below the drop target, e.g. "photos/2024/a.jpg". */
  relativePath: string;
  file: File;
}

export interface WalkEntry {
  isFile: boolean;
  isDirectory: boolean;
  name: string;
  file?: (ok: (file: File) => void, fail?: (error: unknown) => void) => void;
  createReader?: () => {
    readEntries: (ok: (entries: WalkEntry[]) => void, fail?: (error: unknown) => void) => void;
  };
}

export interface DropItem {
  kind: string;
  getAsFile: () => File | null;
  webkitGetAsEntry?: () => WalkEntry | null;
}

function fileOf(entry: WalkEntry): Promise<File> {
  return new Promise((resolve, reject) => entry.file!(resolve, reject));
}

async function readAll(entry: WalkEntry): Promise<WalkEntry[]> {
  const reader = entry.createReader!();
  const all: WalkEntry[] = [];
  for (;;) {
    const batch = await new Promise<WalkEntry[]>((resolve, reject) => reader.readEntries(resolve, reject));
    if (batch.length === 0) return all;
    all.push(...batch);
  }
}

async function walk(entry: WalkEntry, prefix: string, out: DroppedFile[], dirs: string[]): Promise<void> {
  const path = prefix ? `${prefix}/${entry.name}` : entry.name;
  if (entry.isFile && entry.file) {
    out.push({ relativePath: path, file: await fileOf(entry) });
  } else if (entry.isDirectory && entry.createReader) {
    dirs.push(path);
    for (const child of await readAll(entry)) await walk(child, path, out, dirs);
  }
}

/** Every file of a drop with its relative path, and the folders to create (parents first). */
export async function collectDrop(
  items: ArrayLike<DropItem> | null,
  files: ArrayLike<File> | null,
): Promise<{ files: DroppedFile[]; dirs: string[] }> {
  const out: DroppedFile[] = [];
  const dirs: string[] = [];
  // Entries must be taken synchronously, before the first await: the list empties after the event.
  const entries: WalkEntry[] = [];
  const plain: File[] = [];
  if (items && items.length > 0) {
    for (let i = 0; i < items.length; i++) {
      const item = items[i]!;
      if (item.kind !== "file") continue;
      const entry = item.webkitGetAsEntry?.() ?? null;
      if (entry) entries.push(entry);
      else {
        const file = item.getAsFile();
        if (file) plain.push(file);
      }
    }
  } else if (files) {
    for (let i = 0; i < files.length; i++) plain.push(files[i]!);
  }
  for (const entry of entries) await walk(entry, "", out, dirs);
  for (const file of plain) out.push({ relativePath: file.name, file });
  return { files: out, dirs };
}

/**
 * The files of a folder picked with `<input webkitdirectory>`, each with its
 * path inside that folder, and the folders to create (parents first).
 */
export function collectPickedFolder(files: ArrayLike<File & { webkitRelativePath?: string }>): {
  files: DroppedFile[];
  dirs: string[];
} {
  const out = Array.from(files, (f) => ({ relativePath: f.webkitRelativePath || f.name, file: f as File }));
  const dirs = new Set<string>();
  for (const f of out) {
    const parts = f.relativePath.split("/").slice(0, -1);
    for (let i = 1; i <= parts.length; i++) dirs.add(parts.slice(0, i).join("/"));
  }
  return { files: out, dirs: [...dirs].sort((a, b) => a.split("/").length - b.split("/").length) };
}
