import * as fs from "node:fs/promises";
import * as nodePath from "node:path";
import { writerGone } from "../../lib/writer-tag";
import { pathOutsideRoot } from "../errors";
import type { AbandonedAges, AbandonedCounts } from "../types";
import { errnoOf, mapFsError } from "./local-fs";
import { PART_TEMP } from "./local-multipart";

/** Prefix of a single write's temporary file in the temp directory (see lib/writer-tag.ts). */
export const WRITE_TEMP = "w";

/**
 * Where the LOCAL driver's paths really lead, and what may be there: path
 * confinement through symlinks, and the sweep of the hidden temp directory.
 */

/** `path` is `dir` or lies below it (absolute paths). */
export function isSameOrBelow(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir.endsWith(nodePath.sep) ? dir : dir + nodePath.sep);
}

/**
 * Absolute location of the normalized root-relative path `rel`. The nearest
 * existing ancestor is resolved with realpath (all of `rel` with
 * `followFinal`, else all but its last segment, so the entry itself is acted
 * on); the result must lie inside `bound` and outside `temp`, else 403. A
 * dangling symlink on the way is refused too: it could be made to point
 * anywhere later.
 */
export async function resolveConfined(
  rel: string,
  where: { root: string; temp: string; bound: string; followFinal: boolean },
): Promise<string> {
  const segments = rel === "" ? [] : rel.split("/");
  const probe = where.followFinal ? segments : segments.slice(0, -1);
  const tail = where.followFinal ? [] : segments.slice(-1);
  let retries = 0;
  for (let i = probe.length; ; i--) {
    const candidate = nodePath.join(where.root, ...probe.slice(0, i));
    let real: string;
    try {
      real = await fs.realpath(candidate);
    } catch (e) {
      const code = errnoOf(e);
      if (i === 0 || (code !== "ENOENT" && code !== "ENOTDIR")) throw mapFsError(e, rel);
      if (code === "ENOENT") {
        const st = await fs.lstat(candidate).catch(() => null);
        if (st?.isSymbolicLink()) throw pathOutsideRoot(rel);
        // Created by a concurrent write since realpath looked: resolve this level again.
        if (st && retries++ < 3) i++;
      }
      continue;
    }
    // What follows the resolved ancestor are plain names (normalized: no "..", no separators).
    const abs = nodePath.join(real, ...probe.slice(i), ...tail);
    if (!isSameOrBelow(abs, where.bound) || isSameOrBelow(abs, where.temp)) throw pathOutsideRoot(rel);
    return abs;
  }
}

/**
 * Deletes temp files of single writes (`w-*`) untouched for `idleWriteMs` (a
 * streaming write touches its file with every chunk) and multipart uploads
 * (`mp-*`, touched as parts arrive) untouched for `multipartMs`.
 */
async function removeOrphanedParts(uploadDir: string): Promise<number> {
  let removed = 0;
  for (const name of await fs.readdir(uploadDir).catch(() => [] as string[])) {
    if (!writerGone(name, PART_TEMP)) continue;
    await fs.rm(nodePath.join(uploadDir, name), { force: true });
    removed++;
  }
  return removed;
}

export async function sweepTempDir(temp: string, ages: AbandonedAges, at: Date): Promise<AbandonedCounts> {
  const now = at.getTime();
  const counts: AbandonedCounts = { tempFiles: 0, multipartUploads: 0 };
  let names: string[];
  try {
    names = await fs.readdir(temp);
  } catch (e) {
    // A storage never written to (or whose disk is not mounted) has nothing to sweep.
    if (errnoOf(e) === "ENOENT") return counts;
    throw e;
  }
  for (const name of names) {
    const full = nodePath.join(temp, name);
    const st = await fs.lstat(full).catch(() => null);
    const multipart = name.startsWith("mp-");
    // An upload session outlives the process that began it (clients resume after a restart),
    // but a part that was being written when its process died is dead.
    if (multipart && st?.isDirectory()) counts.tempFiles += await removeOrphanedParts(full);
    const orphaned = !multipart && writerGone(name, WRITE_TEMP);
    if (!st || (!orphaned && st.mtimeMs >= now - (multipart ? ages.multipartMs : ages.idleWriteMs))) continue;
    await fs.rm(full, { recursive: true, force: true });
    if (multipart) counts.multipartUploads++;
    else counts.tempFiles++;
  }
  return counts;
}
