import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useReducer, useRef } from "react";
import { type UploadCallbacks, UploadStepError, uploadFile } from "../api/upload-file";
import { describeUploadError } from "../upload-errors";
import type { UploadFields } from "../upload-form-model";
import { initialUploadQueue, itemsToStart, type UploadFailure, uploadQueueReducer } from "../upload-queue";
import { recentUploadsQueryKey } from "./use-upload-data";

let nextId = 1;
const newId = () => `u${Date.now().toString(36)}-${nextId++}`;

/** Progress events closer together than this are merged (keeps renders cheap on fast links). */
const PROGRESS_INTERVAL_MS = 150;

/**
 * The upload list of /upload: the pure state machine plus the side that runs
 * uploads — File objects, abort controllers, and a scheduler that starts
 * queued items while slots are free.
 */
export function useUploadQueue(options: {
  maxBytes: number | null;
  /** The share fields for an item that starts now (`single`: it is the only one, so a slug applies). */
  fieldsFor: (single: boolean) => UploadFields;
}) {
  const [state, dispatch] = useReducer(uploadQueueReducer, initialUploadQueue);
  const files = useRef(new Map<string, { file: File; name: string }>());
  const controllers = useRef(new Map<string, AbortController>());
  const itemFields = useRef(new Map<string, UploadFields>());
  const running = useRef(new Set<string>());
  // Bumped when an upload settles, so a slot freed without a state change (a retry queued
  // while its cancelled run was still winding down) is filled too.
  const [settled, bumpSettled] = useReducer((n: number) => n + 1, 0);
  const queryClient = useQueryClient();
  const optionsRef = useRef(options);
  optionsRef.current = options;

  const addFiles = useCallback((list: Iterable<{ file: File; name?: string }>) => {
    const added: { id: string; name: string; size: number; type: string }[] = [];
    const tooLarge: string[] = [];
    const max = optionsRef.current.maxBytes;
    for (const { file, name } of list) {
      const id = newId();
      const fileName = name ?? file.name;
      files.current.set(id, { file, name: fileName });
      added.push({ id, name: fileName, size: file.size, type: file.type });
      if (max !== null && file.size > max) tooLarge.push(id);
    }
    dispatch({ type: "add", files: added });
    for (const id of tooLarge) {
      dispatch({ type: "reject", id, error: { scope: "upload", key: "tooLargeLocal" } });
    }
    return added.length;
  }, []);

  /** Start every waiting file with the current options. */
  const startAll = useCallback(() => {
    const waiting = state.items.filter((i) => i.status === "pending" && !i.queued);
    const fields = optionsRef.current.fieldsFor(waiting.length <= 1);
    for (const item of waiting) itemFields.current.set(item.id, fields);
    dispatch({ type: "enqueueAll" });
  }, [state.items]);

  const retry = useCallback(
    (id: string) => {
      const others = state.items.filter((i) => i.id !== id && i.status !== "success");
      itemFields.current.set(id, optionsRef.current.fieldsFor(others.length === 0));
      dispatch({ type: "retry", id });
    },
    [state.items],
  );

  const cancel = useCallback((id: string) => {
    controllers.current.get(id)?.abort();
    dispatch({ type: "cancel", id });
  }, []);

  const remove = useCallback((id: string) => {
    controllers.current.get(id)?.abort();
    files.current.delete(id);
    itemFields.current.delete(id);
    dispatch({ type: "remove", id });
  }, []);

  const clearFinished = useCallback(() => {
    for (const item of state.items) {
      if (item.status === "success") {
        files.current.delete(item.id);
        itemFields.current.delete(item.id);
      }
    }
    dispatch({ type: "clearFinished" });
  }, [state.items]);

  // The scheduler: whenever the list changes or a run settles, fill free slots.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `settled` re-runs it on purpose
  useEffect(() => {
    for (const id of itemsToStart(state)) {
      if (running.current.has(id)) continue;
      const entry = files.current.get(id);
      if (!entry) continue;
      running.current.add(id);
      const controller = new AbortController();
      controllers.current.set(id, controller);
      dispatch({ type: "start", id, at: Date.now() });

      let lastProgress = 0;
      const callbacks: UploadCallbacks = {
        signal: controller.signal,
        onProgress: (loaded) => {
          const now = Date.now();
          if (now - lastProgress < PROGRESS_INTERVAL_MS && loaded < entry.file.size) return;
          lastProgress = now;
          dispatch({ type: "progress", id, loaded, at: now });
        },
        onRestart: () => dispatch({ type: "restart", id, at: Date.now() }),
      };
      const fields = itemFields.current.get(id) ?? optionsRef.current.fieldsFor(false);
      uploadFile(entry.file, entry.name, fields, callbacks)
        .then((result) => {
          dispatch({ type: "succeed", id, result });
          void queryClient.invalidateQueries({ queryKey: recentUploadsQueryKey });
        })
        .catch((error: unknown) => {
          const failure: UploadFailure =
            error instanceof UploadStepError
              ? describeUploadError(error.cause, error.step)
              : describeUploadError(error, "transfer");
          dispatch({ type: "fail", id, error: failure });
        })
        .finally(() => {
          running.current.delete(id);
          if (controllers.current.get(id) === controller) controllers.current.delete(id);
          bumpSettled();
        });
    }
  }, [state, settled, queryClient]);

  // Leaving the page stops what is still running.
  useEffect(() => {
    const active = controllers.current;
    return () => {
      for (const controller of active.values()) controller.abort();
    };
  }, []);

  return { state, addFiles, startAll, retry, cancel, remove, clearFinished };
}
