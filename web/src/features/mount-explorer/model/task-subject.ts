import type { FsTask } from "@clipshare/shared";
import { baseName, normalizePath, parentPath } from "./paths";

/**
 * What a background task works on, read from its payload: the first file it names,
 * how many more, and where a copy goes. Null parts are left out of the panel.
 */
export interface TaskSubject {
  first: string | null;
  more: number;
  target: string | null;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null;
const str = (v: unknown): string | null => (typeof v === "string" && v !== "" ? v : null);

/** The folder a copy goes into: a target ending in "/" is that folder, else the target's parent. */
const folderOf = (target: string) => (target.endsWith("/") ? normalizePath(target) : parentPath(target));

export function taskSubject(task: Pick<FsTask, "type" | "payload">): TaskSubject {
  const p = isRecord(task.payload) ? task.payload : {};
  if (task.type === "copy" && Array.isArray(p.items)) {
    const items = p.items.filter(isRecord);
    const source = str(items[0]?.sourcePath);
    const target = str(items[0]?.targetPath);
    return {
      first: source ? baseName(source) : null,
      more: Math.max(0, items.length - 1),
      target: target ? folderOf(target) : null,
    };
  }
  if (task.type === "delete" && Array.isArray(p.paths)) {
    const first = str(p.paths[0]);
    return { first: first ? baseName(first) : null, more: Math.max(0, p.paths.length - 1), target: null };
  }
  // A URL fetch: the file it saves, into an explorer folder or a share.
  const name = str(p.filename) ?? str(p.url);
  return { first: name, more: 0, target: str(p.target_path) };
}
