/**
 * What the explorer says after a copy (spec §8, "Copy"): the count it was
 * asked to copy when the rest continues as a task, "no files to copy" when
 * there was nothing, and "operation cancelled" when a copy task was stopped.
 */
export interface CopyCounts {
  success: number;
  skipped: number;
  failed: number;
  queued: number;
}

export type CopyOutcome =
  | { key: "explorer.noFilesToCopy"; tone: "info" }
  | { key: "explorer.copyQueued"; tone: "info"; params: { count: number } }
  | { key: "explorer.copyDone"; tone: "success" | "error"; params: Omit<CopyCounts, "queued"> };

/** `requested` is how many entries the user chose; `result` is null when nothing was sent. */
export function copyOutcome(requested: number, result: CopyCounts | null): CopyOutcome {
  if (!result || requested === 0 || result.success + result.skipped + result.failed + result.queued === 0) {
    return { key: "explorer.noFilesToCopy", tone: "info" };
  }
  if (result.queued > 0) return { key: "explorer.copyQueued", tone: "info", params: { count: requested } };
  const { success, skipped, failed } = result;
  return {
    key: "explorer.copyDone",
    tone: failed ? "error" : "success",
    params: { success, skipped, failed },
  };
}

/** The line under a task stopped on purpose: a cancelled copy says "operation cancelled". */
export function stoppedTaskNote(task: {
  type: string;
  status: string;
}): "explorer.operationCancelled" | null {
  return task.type === "copy" && task.status === "cancelled" ? "explorer.operationCancelled" : null;
}
