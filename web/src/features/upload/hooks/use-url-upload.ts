import { useCallback, useEffect, useRef, useState } from "react";
import { createUpload } from "../../../lib/upload-engine/create-upload";
import type { Upload } from "../../../lib/upload-engine/upload-base";
import type { UploadFailure } from "../../../lib/upload-engine/upload-queue";
import { describeUploadFailure } from "../../../lib/upload-errors";
import type { UploadResult } from "../api/upload-file";
import { downloadRemote, type RemoteFileInfo, urlApi, urlTarget } from "../api/url-upload";
import type { UploadFields } from "../upload-form-model";
import type { UrlUploadPhase } from "../url-upload-model";

export type UrlUploadMode = "browser" | "server";

export interface UrlUploadState {
  status: "idle" | "running" | "done" | "failed" | "cancelled";
  mode: UrlUploadMode;
  phase: UrlUploadPhase;
  loaded: number;
  total: number | null;
  /** How the browser got the bytes: straight from the remote server or through ClipShare's proxy. */
  via: "direct" | "proxy" | null;
  slug: string | null;
  /** "fetch": the remote file could not be read; "upload": storing it failed. */
  failure: { step: "fetch" | "upload"; detail: UploadFailure } | null;
}

const IDLE: UrlUploadState = {
  status: "idle",
  mode: "browser",
  phase: "download",
  loaded: 0,
  total: null,
  via: null,
  slug: null,
  failure: null,
};

/** Share options of /url/fetch: numbers where the route takes numbers. */
function fetchBody(fields: UploadFields, info: RemoteFileInfo) {
  const { expires_in, max_views, ...rest } = fields;
  return {
    ...rest,
    url: info.url,
    filename: info.filename,
    ...(expires_in ? { expires_in: Number(expires_in) } : {}),
    ...(max_views ? { max_views: Number(max_views) } : {}),
  };
}

const POLL_MS = 1000;

/**
 * One URL upload at a time: in the browser (download with a proxy fallback,
 * then the upload engine), or as a server task that streams the remote file
 * straight into storage and keeps going when the tab closes.
 */
export function useUrlUpload(onDone: () => void) {
  const [state, setState] = useState<UrlUploadState>(IDLE);
  const stop = useRef<(() => void) | null>(null);
  const stopBrowser = useRef<(() => void) | null>(null);
  const patch = useCallback((p: Partial<UrlUploadState>) => setState((s) => ({ ...s, ...p })), []);

  const runInBrowser = useCallback(
    async (info: RemoteFileInfo, fields: UploadFields) => {
      const controller = new AbortController();
      let upload: Upload<UploadResult> | null = null;
      stopBrowser.current = () => {
        controller.abort();
        void upload?.abort();
      };
      stop.current = () => {
        stopBrowser.current?.();
        patch({ status: "cancelled" });
      };
      let file: File;
      try {
        const got = await downloadRemote(info, {
          signal: controller.signal,
          onProgress: (loaded) => patch({ loaded }),
        });
        file = got.file;
        patch({ via: got.via });
      } catch (error) {
        if (!controller.signal.aborted)
          patch({ status: "failed", failure: { step: "fetch", detail: describeUploadFailure(error) } });
        return;
      }
      if (controller.signal.aborted) return;
      patch({ phase: "upload", loaded: 0, total: file.size });
      const running = createUpload({ file, name: file.name }, urlTarget(fields, info));
      upload = running;
      running.subscribe(() => {
        const snap = running.snapshot();
        if (snap.state === "completed" && snap.result) {
          patch({ status: "done", phase: "done", slug: snap.result.slug });
          onDone();
        } else if (snap.state === "failed") {
          patch({ status: "failed", failure: { step: "upload", detail: describeUploadFailure(snap.error) } });
        } else if (snap.state === "uploading") {
          patch({ loaded: snap.loaded });
        }
      });
      running.start();
    },
    [patch, onDone],
  );

  const runOnServer = useCallback(
    async (info: RemoteFileInfo, fields: UploadFields) => {
      let cancelled = false;
      let taskId: string | null = null;
      stop.current = () => {
        cancelled = true;
        if (taskId) void urlApi.cancelTask(taskId).catch(() => undefined);
        patch({ status: "cancelled" });
      };
      try {
        const task = await urlApi.fetchOnServer(fetchBody(fields, info));
        taskId = task.id;
        if (cancelled) {
          await urlApi.cancelTask(task.id);
          return;
        }
        for (;;) {
          await new Promise((r) => setTimeout(r, POLL_MS));
          if (cancelled) return;
          const now = await urlApi.task(task.id);
          patch({ loaded: now.processed_bytes, total: now.total_bytes || info.size });
          if (now.status === "completed") {
            patch({ status: "done", phase: "done", slug: now.result?.slug ?? null });
            onDone();
            return;
          }
          if (now.status === "cancelled") return patch({ status: "cancelled" });
          if (now.status === "failed" || now.status === "partial")
            return patch({
              status: "failed",
              failure: { step: "fetch", detail: { scope: "text", text: now.error ?? now.status } },
            });
        }
      } catch (error) {
        if (!cancelled)
          patch({ status: "failed", failure: { step: "fetch", detail: describeUploadFailure(error) } });
      }
    },
    [patch, onDone],
  );

  const start = useCallback(
    (info: RemoteFileInfo, fields: UploadFields, mode: UrlUploadMode) => {
      stopBrowser.current = null;
      setState({ ...IDLE, status: "running", mode, total: info.size });
      void (mode === "server" ? runOnServer(info, fields) : runInBrowser(info, fields));
    },
    [runInBrowser, runOnServer],
  );

  const cancel = useCallback(() => stop.current?.(), []);
  const reset = useCallback(() => setState(IDLE), []);

  // Leaving the page stops a browser upload; a server task keeps running.
  useEffect(() => () => stopBrowser.current?.(), []);

  return { state, start, cancel, reset };
}
