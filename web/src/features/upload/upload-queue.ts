/**
 * The upload list of /upload as a state machine (spec §4: pending → uploading
 * (percent) → success | error; cancel, retry, remove), plus the progress and
 * speed arithmetic. Pure: no DOM, no timers, time is passed in, so every
 * transition is unit-tested. The page's hook feeds it events and runs the
 * uploads it asks for.
 */

export type UploadStatus = "pending" | "uploading" | "success" | "error";

/** Why an item failed, ready for translation (keys under `upload.errors.` or `errors.`, or a server text). */
export type UploadFailure =
  | { scope: "upload"; key: UploadErrorKey; values?: Record<string, string | number> }
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

/** What a finished upload published. */
export interface UploadResult {
  id: string;
  slug: string;
  filename: string;
  size: number;
  /** Share page path, /file/{slug}. */
  url: string;
  /** "presigned" when the bytes went straight to storage, "server" when they streamed through ClipShare. */
  method: "presigned" | "server";
}

export interface ProgressSample {
  at: number;
  loaded: number;
}

export interface UploadItem {
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
  error: UploadFailure | null;
  result: UploadResult | null;
}

export interface UploadQueueState {
  items: UploadItem[];
}

export type UploadEvent =
  | { type: "add"; files: { id: string; name: string; size: number; type: string }[] }
  /** Fail an item before it ever starts (too large, …). */
  | { type: "reject"; id: string; error: UploadFailure }
  /** Queue every pending item (the "upload" button). */
  | { type: "enqueueAll" }
  | { type: "start"; id: string; at: number }
  | { type: "progress"; id: string; loaded: number; at: number }
  /** A new attempt from zero within the same upload (fallback to another method). */
  | { type: "restart"; id: string; at: number }
  | { type: "succeed"; id: string; result: UploadResult }
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

function update(
  state: UploadQueueState,
  id: string,
  fn: (item: UploadItem) => UploadItem | null,
): UploadQueueState {
  let changed = false;
  const items: UploadItem[] = [];
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

export function uploadQueueReducer(state: UploadQueueState, event: UploadEvent): UploadQueueState {
  switch (event.type) {
    case "add": {
      const known = new Set(state.items.map((i) => i.id));
      const added = event.files
        .filter((f) => !known.has(f.id))
        .map<UploadItem>((f) => ({
          id: f.id,
          name: f.name,
          size: Math.max(0, f.size),
          type: f.type,
          status: "pending",
          queued: false,
          loaded: 0,
          samples: [],
          attempts: 0,
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
              loaded: 0,
              samples: [{ at: event.at, loaded: 0 }],
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
        return { ...item, loaded, samples };
      });
    case "restart":
      return update(state, event.id, (item) =>
        item.status === "uploading" ? { ...item, loaded: 0, samples: [{ at: event.at, loaded: 0 }] } : item,
      );
    case "succeed":
      return update(state, event.id, (item) =>
        item.status === "uploading"
          ? {
              ...item,
              status: "success",
              loaded: item.size,
              samples: [],
              result: event.result,
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
        item.status === "uploading" || (item.status === "pending" && item.queued)
          ? { ...item, status: "error", queued: false, samples: [], error: CANCELLED }
          : item,
      );
    case "retry":
      return update(state, event.id, (item) =>
        item.status === "error" && !isFinalFailure(item.error)
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

/** Failures a retry cannot fix (the file itself is over the limit). */
export function isFinalFailure(error: UploadFailure | null): boolean {
  return error?.scope === "upload" && error.key === "tooLargeLocal";
}

/** Items to start now: queued, oldest first, as many as free slots allow. */
export function itemsToStart(state: UploadQueueState, maxConcurrent = MAX_CONCURRENT_UPLOADS): string[] {
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
export function itemProgress(item: UploadItem) {
  const percent = item.status === "success" ? 100 : progressPercent(item.loaded, item.size);
  const speed = item.status === "uploading" ? transferSpeed(item.samples) : null;
  return { percent, speed, remaining: remainingSeconds(item.loaded, item.size, speed) };
}

/** Counts for the summary line and whether the slug field applies (one file only). */
export function queueSummary(state: UploadQueueState) {
  const count = (s: UploadStatus) => state.items.filter((i) => i.status === s).length;
  const pending = count("pending");
  const waiting = state.items.filter((i) => i.status === "pending" && !i.queued).length;
  return {
    total: state.items.length,
    pending,
    waiting,
    uploading: count("uploading"),
    success: count("success"),
    error: count("error"),
    /** Files the next start would upload; a custom slug only makes sense for one. */
    allowSlug: waiting <= 1,
    busy: state.items.some((i) => i.status === "uploading" || (i.status === "pending" && i.queued)),
  };
}
