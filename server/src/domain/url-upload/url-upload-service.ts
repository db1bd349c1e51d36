/**
 * URL upload: a file share whose bytes come from a remote URL. The browser
 * path asks `info`, downloads the file itself (or through `openProxy` when the
 * remote server does not allow cross-origin reads) and uploads it like any
 * file with `presign` + the storage PUT + commit. "Fetch on the server"
 * (`queueFetch`) instead queues a task that streams the remote file straight
 * into storage (url-fetch-task.ts). Every remote request goes through the
 * SafeFetcher, so no path here can reach a private address.
 */
import type { urlFetchRequest, urlPresignRequest } from "@clipshare/shared";
import type { z } from "zod";
import type { Principal } from "../../auth/principal";
import { notFound } from "../../errors";
import type { SecretBox } from "../../lib/crypto";
import type { RemoteResponse, SafeFetcher } from "../../lib/net/safe-fetch";
import type { FileShareService } from "../files/file-share-service";
import type { UploadService } from "../files/upload-service";
import { apiActor, authorize } from "../fs/access";
import { tooLarge } from "../fs/fs-uploads";
import { normalizeVirtualPath } from "../fs/vpath";
import type { SettingsService } from "../settings/settings-service";
import { presentTask, type TaskService } from "../tasks/task-service";
import { cleanRemoteName, describeRemote, type RemoteFileInfo } from "./remote-file";
import type { UrlFetchPayload } from "./url-fetch-task";

type PresignInput = z.output<typeof urlPresignRequest>;
type FetchInput = z.output<typeof urlFetchRequest>;

export interface UrlUploadDeps {
  fetcher: SafeFetcher;
  uploads: UploadService;
  shares: FileShareService;
  settings: SettingsService;
  secrets: SecretBox;
  tasks: TaskService;
  /** Tells the task runners (of every instance) that work was queued. */
  tasksQueued: () => Promise<void>;
}

export class UrlUploadService {
  constructor(private readonly deps: UrlUploadDeps) {}

  info(url: string): Promise<RemoteFileInfo> {
    return describeRemote(this.deps.fetcher, url);
  }

  /** The remote body for GET /url/proxy, limited to the max upload size. */
  async openProxy(url: string, signal?: AbortSignal): Promise<RemoteResponse> {
    const maxBytes = await this.deps.settings.maxUploadBytes();
    return this.deps.fetcher.openOk(url, {
      maxBytes,
      tooLarge: (n) => tooLarge(maxBytes, n).message,
      ...(signal ? { signal } : {}),
    });
  }

  /** POST /url/presign: the share is reserved like s3/presign, named and typed after the remote file. */
  async presign(principal: Principal, input: PresignInput, publicOrigin: string) {
    const { url, metadata, filename, ...options } = input;
    this.deps.fetcher.check(url);
    // The client's metadata is trusted only when complete; otherwise ask the remote server.
    const known =
      metadata?.filename && metadata.contentType
        ? { filename: metadata.filename, contentType: metadata.contentType, size: metadata.size ?? null }
        : await this.info(url);
    const data = await this.deps.uploads.presign(
      principal,
      {
        ...options,
        filename: filename ?? cleanRemoteName(known.filename),
        mimetype: options.mimetype ?? known.contentType,
        ...(known.size !== null && known.size !== undefined ? { size: known.size } : {}),
      },
      publicOrigin,
    );
    const corsSupported = "corsSupported" in known ? known.corsSupported : false;
    return { ...data, corsSupported, sourceUrl: url };
  }

  /** POST /url/cancel: the reserved share and whatever reached storage go away. */
  async cancel(principal: Principal, fileId: string) {
    const { success } = await this.deps.shares.batchDelete(principal, { ids: [fileId], delete_mode: "both" });
    if (success !== 1) throw notFound("File does not exist or was deleted", "file_not_found");
    return { file_id: fileId, status: "cancelled", message: "File record deleted" };
  }

  /** POST /url/fetch: queue a server-side download into a new share or an explorer directory. */
  async queueFetch(principal: Principal, input: FetchInput) {
    const { url, filename, target_path, password, ...options } = input;
    this.deps.fetcher.check(url);
    let targetPath: string | undefined;
    if (target_path) {
      targetPath = normalizeVirtualPath(target_path);
      authorize(apiActor(principal), "upload", targetPath);
    }
    const payload: UrlFetchPayload = {
      url,
      ...(filename ? { filename } : {}),
      ...(targetPath ? { target_path: targetPath } : { options }),
      // Tasks are readable by their owner: the share password is stored sealed, never in clear.
      ...(password && !targetPath ? { password_sealed: this.deps.secrets.seal(password) } : {}),
    };
    const task = await this.deps.tasks.create(principal, "download", payload, { total_items: 1 });
    await this.deps.tasksQueued();
    return presentTask(task);
  }
}
