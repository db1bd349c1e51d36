import { useCallback, useEffect, useReducer, useRef } from "react";
import { formatBytes } from "../file-size";
import { toast } from "../notices";
import { createUpload, type EngineOptions, type UploadTarget } from "./create-upload";
import type { Upload } from "./upload-base";
import {
  initialUploadQueue,
  isNetworkFailure,
  itemsToStart,
  type UploadFailure,
  type UploadQueueState,
  uploadQueueReducer,
} from "./upload-queue";

let nextId = 1;
const newId = () => `u${Date.now().toString(36)}-${nextId++}`;

/** Progress events closer together than this are merged (keeps renders cheap on fast links). */
const PROGRESS_INTERVAL_MS = 150;

export interface QueuedFile<R> {
  file: File;
  /** Shown and stored name (a dropped folder's relative path, a pasted file's name). */
  name?: string;
  /** Destination of this file; else the one `targetFor` gives when it starts. */
  target?: UploadTarget<R>;
}

interface Entry<R> {
  file: File;
  name: string;
  target: UploadTarget<R> | null;
  upload: Upload<R> | null;
  unsubscribe: (() => void) | null;
}

/** The same file under the same name: what makes two items one upload (and one resumable session). */
function fingerprint(file: File, name: string): string {
  return `${name}\u0000${file.size}\u0000${file.lastModified}`;
}

function continuesOnRetry(upload: Upload<unknown> | null): boolean {
  if (upload?.state !== "failed") return false;
  const snapshot = upload.snapshot();
  return snapshot.method === "multipart" && snapshot.loaded > 0;
}

/**
 * The upload list of /upload and the explorer: the pure queue state machine
 * plus the side that runs uploads through the engine (one Upload per item,
 * kept across pause, resume and retry so only missing parts are sent), with
 * a scheduler that starts queued items while slots are free.
 */
export function useUploadQueue<R>(options: {
  maxBytes?: number | null;
  /** The destination of items queued without one (`single`: the only one queued, so a slug applies). */
  targetFor?: (single: boolean) => UploadTarget<R>;
  /** Turns an engine or server error into a text to show. */
  describeError: (error: unknown) => UploadFailure;
  /** The notice for files refused because they are already in the list (the caller's texts). */
  describeDuplicates: (names: string[]) => string;
  onCompleted?: (id: string, result: R) => void;
  engine?: EngineOptions;
}) {
  const [state, dispatch] = useReducer(uploadQueueReducer<R>, initialUploadQueue as UploadQueueState<R>);
  const entries = useRef(new Map<string, Entry<R>>());
  const optionsRef = useRef(options);
  optionsRef.current = options;

  const dropUpload = useCallback((entry: Entry<R>) => {
    entry.unsubscribe?.();
    entry.unsubscribe = null;
    const upload = entry.upload;
    entry.upload = null;
    if (upload) void upload.abort();
  }, []);

  const itemsRef = useRef(state.items);
  itemsRef.current = state.items;

  const addFiles = useCallback((list: Iterable<QueuedFile<R>>, start = false) => {
    const added: { id: string; name: string; size: number; type: string }[] = [];
    const tooLarge: string[] = [];
    const duplicates: string[] = [];
    const max = optionsRef.current.maxBytes ?? null;
    // A file already in the list and not yet uploaded is refused: two items of one file would
    // race on one resumable multipart session. Once uploaded, it may be added (and shared) again.
    const uploaded = new Set(itemsRef.current.filter((i) => i.status === "success").map((i) => i.id));
    const inList = new Set<string>();
    for (const [id, entry] of entries.current)
      if (!uploaded.has(id)) inList.add(fingerprint(entry.file, entry.name));
    for (const { file, name, target } of list) {
      const id = newId();
      const fileName = name ?? file.name;
      const key = fingerprint(file, fileName);
      if (inList.has(key)) {
        duplicates.push(fileName);
        continue;
      }
      inList.add(key);
      entries.current.set(id, {
        file,
        name: fileName,
        target: target ?? null,
        upload: null,
        unsubscribe: null,
      });
      added.push({ id, name: fileName, size: file.size, type: file.type });
      if (max !== null && file.size > max) tooLarge.push(id);
    }
    dispatch({ type: "add", files: added });
    for (const id of tooLarge)
      dispatch({
        type: "reject",
        id,
        error: { scope: "upload", key: "tooLargeLocal", values: { size: formatBytes(max ?? 0) } },
      });
    if (start) dispatch({ type: "enqueueAll" });
    if (duplicates.length > 0) toast(optionsRef.current.describeDuplicates(duplicates), "info");
    return added.map((a) => a.id);
  }, []);

  /** Start every waiting file with the destination `targetFor` gives now. */
  const startAll = useCallback(() => {
    const waiting = state.items.filter((i) => i.status === "pending" && !i.queued);
    const targetFor = optionsRef.current.targetFor;
    if (targetFor) {
      const target = targetFor(waiting.length <= 1);
      for (const item of waiting) {
        const entry = entries.current.get(item.id);
        if (entry) entry.target = target;
      }
    }
    dispatch({ type: "enqueueAll" });
  }, [state.items]);

  const retry = useCallback(
    (id: string) => {
      const entry = entries.current.get(id);
      // A multipart upload that failed after storing parts continues where it stopped; anything
      // else (a cancelled upload, a refused start such as a taken slug) starts anew with the current options.
      if (entry && !continuesOnRetry(entry.upload)) {
        dropUpload(entry);
        const others = state.items.filter((i) => i.id !== id && i.status !== "success");
        const targetFor = optionsRef.current.targetFor;
        if (targetFor) entry.target = targetFor(others.length === 0);
      }
      dispatch({ type: "retry", id });
    },
    [state.items, dropUpload],
  );

  const pause = useCallback((id: string) => {
    const upload = entries.current.get(id)?.upload;
    upload?.pause();
    dispatch({ type: "pause", id, kept: upload?.snapshot().loaded });
  }, []);

  const resume = useCallback((id: string) => dispatch({ type: "resume", id }), []);

  const cancel = useCallback(
    (id: string) => {
      const entry = entries.current.get(id);
      if (entry) dropUpload(entry);
      dispatch({ type: "cancel", id });
    },
    [dropUpload],
  );

  const remove = useCallback(
    (id: string) => {
      const entry = entries.current.get(id);
      if (entry && entry.upload?.state !== "completed") dropUpload(entry);
      entries.current.delete(id);
      dispatch({ type: "remove", id });
    },
    [dropUpload],
  );

  const clearFinished = useCallback(() => {
    for (const item of state.items) if (item.status === "success") entries.current.delete(item.id);
    dispatch({ type: "clearFinished" });
  }, [state.items]);

  // The scheduler: whenever the list changes, fill free slots.
  useEffect(() => {
    for (const id of itemsToStart(state)) {
      const entry = entries.current.get(id);
      if (!entry) continue;
      dispatch({ type: "start", id, at: Date.now() });
      const existing = entry.upload;
      if (existing?.state === "paused") {
        existing.resume();
        continue;
      }
      if (existing?.state === "failed") {
        existing.retry();
        continue;
      }
      const target = entry.target ?? optionsRef.current.targetFor?.(false);
      if (!target) continue;
      const upload = createUpload({ file: entry.file, name: entry.name }, target, optionsRef.current.engine);
      entry.upload = upload;
      let lastProgress = 0;
      let lastState = upload.state;
      entry.unsubscribe = upload.subscribe(() => {
        const snap = upload.snapshot();
        if (snap.state !== lastState) {
          lastState = snap.state;
          if (snap.state === "completed" && snap.result !== null) {
            dispatch({ type: "succeed", id, result: snap.result });
            optionsRef.current.onCompleted?.(id, snap.result);
          } else if (snap.state === "failed") {
            dispatch({ type: "fail", id, error: optionsRef.current.describeError(snap.error) });
          }
          return;
        }
        if (snap.state !== "uploading") return;
        const now = Date.now();
        if (now - lastProgress < PROGRESS_INTERVAL_MS && snap.loaded < snap.total) return;
        lastProgress = now;
        dispatch({ type: "progress", id, loaded: snap.loaded, at: now, resumedParts: snap.resumedParts });
      });
      upload.start();
    }
  }, [state]);

  // Coming back online retries what the lost connection stopped (multipart continues from the stored parts).
  const retryRef = useRef(retry);
  retryRef.current = retry;
  useEffect(() => {
    const onOnline = () => {
      for (const item of itemsRef.current)
        if (item.status === "error" && isNetworkFailure(item.error)) retryRef.current(item.id);
    };
    window.addEventListener("online", onOnline);
    return () => window.removeEventListener("online", onOnline);
  }, []);

  // Leaving the page stops what is still running; multipart uploads stay resumable.
  useEffect(() => {
    const all = entries.current;
    return () => {
      for (const entry of all.values()) {
        entry.unsubscribe?.();
        entry.upload?.pause();
      }
    };
  }, []);

  return { state, addFiles, startAll, retry, pause, resume, cancel, remove, clearFinished };
}
