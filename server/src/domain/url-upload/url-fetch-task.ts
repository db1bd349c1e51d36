/**
 * The `download` task: streams a remote URL straight into storage, either as
 * a new file share (the upload rules apply: max upload size, quota, slug
 * reservation, cleanup of a half-written object) or as a file in an explorer
 * directory (permission and base path checked again when it runs). It runs
 * on the server, so closing the browser does not stop it; cancelling aborts
 * the remote request, which aborts the storage write. An interrupted download
 * cannot resume (the remote stream is gone), so it is marked failed.
 */
import { pipeline } from "node:stream";
import type { UploadOptions } from "@clipshare/shared";
import type { SecretBox } from "../../lib/crypto";
import { Meter, uploadTooLarge } from "../../lib/ingest";
import type { SafeFetcher } from "../../lib/net/safe-fetch";
import type { UploadService } from "../files/upload-service";
import { apiActor } from "../fs/access";
import type { FsUploadService } from "../fs/fs-uploads";
import type { SettingsService } from "../settings/settings-service";
import type { TaskHandler } from "../tasks/task-runner";
import { describeResponse } from "./remote-file";

export interface UrlFetchPayload {
  url: string;
  filename?: string;
  /** Share options (without the password) when the target is a new file share. */
  options?: Omit<UploadOptions, "password">;
  password_sealed?: string;
  /** Explorer directory to write into instead of a share. */
  target_path?: string;
}

export interface UrlFetchTaskDeps {
  fetcher: SafeFetcher;
  uploads: UploadService;
  fsUploads: FsUploadService;
  settings: SettingsService;
  secrets: SecretBox;
}

export function urlFetchTaskHandler(deps: UrlFetchTaskDeps): TaskHandler {
  return async (run) => {
    const payload = run.payload as UrlFetchPayload;
    const maxBytes = await deps.settings.maxUploadBytes();
    const res = await deps.fetcher.openOk(payload.url, {
      signal: run.signal,
      maxBytes,
      tooLarge: (n) => uploadTooLarge(maxBytes, n).message,
    });
    const info = describeResponse(res, "GET");
    const name = payload.filename ?? info.filename;
    const totals = { total_items: 1, total_bytes: info.size ?? 0 };
    await run.progress({ ...totals, processed_bytes: 0, current_file: name }, true);
    let received = 0;
    const counter = new Meter(
      Number.POSITIVE_INFINITY,
      () => uploadTooLarge(maxBytes, null),
      (total) => {
        received = total;
        run.progress({ processed_bytes: total }).catch(() => undefined);
      },
    );
    // pipeline destroys the counter with the remote stream's error, so the storage write aborts too.
    const body = pipeline(res.body, counter, () => undefined);
    let result: unknown;
    try {
      result = payload.target_path
        ? await deps.fsUploads.upload(apiActor(run.principal), payload.target_path, name, body, {
            contentType: info.contentType,
          })
        : await deps.uploads.uploadStream(run.principal, name, body, {
            ...payload.options,
            ...(payload.password_sealed ? { password: deps.secrets.open(payload.password_sealed) } : {}),
            mimetype: info.contentType,
            declaredSize: info.size,
          });
    } finally {
      // A failed write leaves the body drained, not closed: stop downloading what nobody stores.
      res.body.destroy();
    }
    await run.progress(
      { processed_items: 1, processed_bytes: received, total_bytes: received, current_file: null, result },
      true,
    );
    return { status: "completed" };
  };
}
