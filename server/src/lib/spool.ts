/**
 * Where multipart form uploads spool a file that arrived before the fields
 * that place it, and the sweep of what interrupted requests left there.
 */
import { readdir, rm, stat } from "node:fs/promises";
import path from "node:path";
import { writerGone } from "./writer-tag";

/** Spooled form files are named by taggedTempName(SPOOL_PREFIX). */
export const SPOOL_PREFIX = "form";

export function spoolDir(dataDir: string): string {
  return path.join(dataDir, "tmp", "uploads");
}

/**
 * Removes spooled form files whose process is gone, and any older than
 * `maxAgeMs`: a request deletes its own when it ends, so older ones were left
 * by a process that died mid-upload.
 */
export async function sweepSpool(dir: string, maxAgeMs: number, now = Date.now()): Promise<number> {
  const names = await readdir(dir).catch(() => [] as string[]);
  let removed = 0;
  for (const name of names) {
    if (!name.startsWith(`${SPOOL_PREFIX}-`)) continue;
    const file = path.join(dir, name);
    const info = await stat(file).catch(() => null);
    if (info && (writerGone(name, SPOOL_PREFIX) || now - info.mtimeMs > maxAgeMs)) {
      await rm(file, { force: true });
      removed++;
    }
  }
  return removed;
}
