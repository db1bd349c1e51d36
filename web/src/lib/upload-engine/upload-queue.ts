/**
 * An upload list as a state machine (pending → uploading (percent) ⇄ paused →
 * success | error; cancel, retry, remove), plus the progress and speed
 * arithmetic. /upload and the explorer both keep their lists in it. Pure: no DOM, no timers, time is passed in, so every
 * transition is unit-tested. The page's hook feeds it events and runs the
 * uploads it asks for.
 */

import type { UploadEngineErrorCode } from "./errors";

export type UploadStatus = "pending" | "uploading" | "paused" | "success" | "error";

/**
 * Why an item failed, ready for translation (keys under `upload.errors.`,
 * `uploadEngine.errors.` or `errors.`, or a server text).
 */
export type UploadFailure =
  | { scope: "upload"; key: UploadErrorKey; values?: Record<string, string | number> }
  | {
      scope: "engine";
      key: UploadEngineErrorCode | "multipartInitFailed";
      values?: Record<string, string | number>;
    }
  | { scope: "errors"; key: string; values?: Record<string, string | number> }
  | { scope: "text"; text: string };

export type UploadErrorKey =
  | "cancelled"
  | "network"
  | "failedStatus"
  | "presignFailed"
  | "noValidData"
  | "slugTaken"
  | "tooLarge"
  | "tooLargeLocal"
  | "insufficientStorage"
  | "noConfigPermission";

export interface ProgressSample {
  at: number;
  loaded: number;
}

export interface UploadItem<R = unknown> {
  id: string;
  name: string;
  size: number;
  type: string;
  status: UploadStatus;
  /** Waiting for a free slot (set when the user starts the batch or retries). */
  queued: boolean;
  /** Bytes sent so far in the current attempt. */
  loaded: number;
  /** Recent progress samples (for the speed), newest last. */
  samples: ProgressSample[];
  attempts: number;
  /** Parts the storage already held when this upload continued an earlier one. */
  resumedParts: number;
  error: UploadFailure | null;
  result: R | null;
}

export interface UploadQueueState<R = unknown> {
  items: UploadItem<R>[];
}

export type UploadEvent =
  | { type: "add"; files: { id: string; name: string; size: number; type: string }[] }
  /** Fail an item before it ever starts (too large, …). */
  | { type: "reject"; id: string; error: UploadFailure }
  /** Queue every pending item (the "upload" button). */
  | { type: "enqueueAll" }
  | { type: "start"; id: string; at: number }
  | { type: "progress"; id: string; loaded: number; at: number; resumedParts?: number }
  /** A new attempt from zero within the same upload (fallback to another method). */
  | { type: "restart"; id: string; at: number }
  /** Pause an upload that is running (its bytes stay stored). */
  /** `kept`: the bytes the upload still holds once paused (parts cut off mid-way are sent again). */
  | { type: "pause"; id: string; kept?: number }
  /** Queue a paused upload to continue. */
  | { type: "resume"; id: string }
  | { type: "succeed"; id: string; result: unknown }
  | { type: "fail"; id: string; error: UploadFailure }
  | { type: "cancel"; id: string }
  | { type: "retry"; id: string }
  | { type: "remove"; id: string }
  | { type: "clearFinished" };

/** How long a window of samples the speed is averaged over. */
export const SPEED_WINDOW_MS = 3000;
/** Uploads running at the same time. */
export const MAX_CONCURRENT_UPLOADS = 2;

export const initialUploadQueue: UploadQueueState = { items: [] };

function update<R>(
  state: UploadQueueState<R>,
  id: string,
  fn: (item: UploadItem<R>) => UploadItem<R> | null,
): UploadQueueState<R> {
  let changed = false;
  const items: UploadItem<R>[] = [];
  for (const item of state.items) {
    if (item.id !== id) {
      items.push(item);
      continue;
    }
    const next = fn(item);
    if (next !== item) changed = true;
    if (next) items.push(next);
  }
  return changed ? { items } : state;
}

const CANCELLED: UploadFailure = { scope: "upload", key: "cancelled" };

export function uploadQueueReducer<R>(state: UploadQueueState<R>, event: UploadEvent): UploadQueueState<R> {
  switch (event.type) {
    case "add": {
      const known = new Set(state.items.map((i) => i.id));
      const added = event.files
        .filter((f) => !known.has(f.id))
        .map<UploadItem<R>>((f) => ({
          id: f.id,
          name: f.name,
          size: Math.max(0, f.size),
          type: f.type,
          status: "pending",
          queued: false,
          loaded: 0,
          samples: [],
          attempts: 0,
          resumedParts: 0,
          error: null,
          result: null,
        }));
      return added.length ? { items: [...state.items, ...added] } : state;
    }
    case "reject":
      return update(state, event.id, (item) =>
        item.status === "pending" ? { ...item, status: "error", queued: false, error: event.error } : item,
      );
    case "enqueueAll": {
      if (!state.items.some((i) => i.status === "pending" && !i.queued)) return state;
      return {
        items: state.items.map((i) => (i.status === "pending" && !i.queued ? { ...i, queued: true } : i)),
      };
    }
    case "start":
      return update(state, event.id, (item) =>
        item.status === "pending"
          ? {
              ...item,
              status: "uploading",
              queued: false,
              // The speed counts from the upload's first report: a resumed upload first reports the
              // parts it found stored, and that jump is not bytes sent.
              samples: [],
              attempts: item.attempts + 1,
              error: null,
            }
          : item,
      );
    case "progress":
      return update(state, event.id, (item) => {
        if (item.status !== "uploading") return item;
        const loaded = clamp(event.loaded, 0, item.size || event.loaded);
        const samples = [...item.samples, { at: event.at, loaded }].filter(
          (s, index, all) => index === all.length - 1 || event.at - s.at <= SPEED_WINDOW_MS,
        );
        return { ...item, loaded, samples, resumedParts: event.resumedParts ?? item.resumedParts };
      });
    case "restart":
      return update(state, event.id, (item) =>
        item.status === "uploading" ? { ...item, loaded: 0, samples: [{ at: event.at, loaded: 0 }] } : item,
      );
    case "pause":
      return update(state, event.id, (item) =>
        item.status === "uploading"
          ? {
              ...item,
              status: "paused",
              // The paused figure is what resuming starts from, so it never jumps back.
              loaded: event.kept === undefined ? item.loaded : clamp(event.kept, 0, item.loaded),
              samples: [],
            }
          : item,
      );
    case "resume":
      return update(state, event.id, (item) =>
        item.status === "paused" ? { ...item, status: "pending", queued: true } : item,
      );
    case "succeed":
      return update(state, event.id, (item) =>
        item.status === "uploading"
          ? {
              ...item,
              status: "success",
              loaded: item.size,
              samples: [],
              result: event.result as R,
              error: null,
            }
          : item,
      );
    case "fail":
      return update(state, event.id, (item) =>
        item.status === "uploading" || item.status === "pending"
          ? { ...item, status: "error", queued: false, samples: [], error: event.error }
          : item,
      );
    case "cancel":
      return update(state, event.id, (item) =>
        item.status === "uploading" || item.status === "paused" || (item.status === "pending" && item.queued)
          ? { ...item, status: "error", queued: false, samples: [], error: CANCELLED }
          : item,
      );
    case "retry":
      return update(state, event.id, (item) =>
        item.status === "error"
          ? { ...item, status: "pending", queued: true, loaded: 0, samples: [], error: null }
          : item,
      );
    case "remove":
      return update(state, event.id, () => null);
    case "clearFinished": {
      const items = state.items.filter((i) => i.status !== "success");
      return items.length === state.items.length ? state : { items };
    }
  }
}

/** Failures a lost connection causes, which coming back online may fix. */
export function isNetworkFailure(error: UploadFailure | null): boolean {
  if (!error) return false;
  if (error.scope === "engine") return error.key === "network" || error.key === "timeout";
  if (error.scope === "upload") return error.key === "network";
  return error.scope === "errors" && (error.key === "network" || error.key === "timeout");
}

/** Items to start now: queued, oldest first, as many as free slots allow. */
export function itemsToStart<R>(
  state: UploadQueueState<R>,
  maxConcurrent = MAX_CONCURRENT_UPLOADS,
): string[] {
  const running = state.items.filter((i) => i.status === "uploading").length;
  const free = Math.max(0, maxConcurrent - running);
  return state.items
    .filter((i) => i.status === "pending" && i.queued)
    .slice(0, free)
    .map((i) => i.id);
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

/** Whole percent of `loaded` of `total`; an empty file counts as done once sent. */
export function progressPercent(loaded: number, total: number): number {
  if (!(total > 0)) return loaded > 0 ? 100 : 0;
  return clamp(Math.floor((loaded / total) * 100), 0, 100);
}

/**
 * Bytes per second over the samples within the window before the newest one;
 * null until two samples at least 200 ms apart exist.
 */
export function transferSpeed(samples: ProgressSample[], windowMs = SPEED_WINDOW_MS): number | null {
  const last = samples[samples.length - 1];
  if (!last) return null;
  const first = samples.find((s) => last.at - s.at <= windowMs);
  if (!first || last.at - first.at < 200) return null;
  return Math.max(0, ((last.loaded - first.loaded) * 1000) / (last.at - first.at));
}

/** Seconds left at the current speed; null when unknown. */
export function remainingSeconds(loaded: number, total: number, speed: number | null): number | null {
  if (speed === null || speed <= 0 || total <= loaded) return null;
  return Math.ceil((total - loaded) / speed);
}

/** The progress line of an item: percent, speed, and time left. */
export function itemProgress<R>(item: UploadItem<R>) {
  const percent = item.status === "success" ? 100 : progressPercent(item.loaded, item.size);
  const speed = item.status === "uploading" ? transferSpeed(item.samples) : null;
  return { percent, speed, remaining: remainingSeconds(item.loaded, item.size, speed) };
}

/** Counts for the summary line and whether the slug field applies (one file only). */
export function queueSummary<R>(state: UploadQueueState<R>) {
  const count = (s: UploadStatus) => state.items.filter((i) => i.status === s).length;
  const pending = count("pending");
  const waiting = state.items.filter((i) => i.status === "pending" && !i.queued).length;
  return {
    total: state.items.length,
    pending,
    waiting,
    uploading: count("uploading"),
    paused: count("paused"),
    success: count("success"),
    error: count("error"),
    /** Files the next start would upload; a custom slug only makes sense for one. */
    allowSlug: waiting <= 1,
    busy: state.items.some(
      (i) => i.status === "uploading" || i.status === "paused" || (i.status === "pending" && i.queued),
    ),
  };
}
