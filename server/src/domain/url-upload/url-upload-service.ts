/**
 * URL upload: a file share whose bytes come from a remote URL. The browser
 * path asks `info`, downloads the file itself (or through `openProxy` when the
 * remote server does not allow cross-origin reads) and uploads it like any
 * file with `presign` + the storage PUT + commit. "Fetch on the server"
 * (`queueFetch`) instead queues a task that streams the remote file straight
 * into storage (url-fetch-task.ts). Every remote request goes through the
 * SafeFetcher, so no path here can reach a private address.
 */
import {
  partPlanProblem,
  type RemoteFileInfo,
  type UrlMultipartStarted,
  type UrlPresignedUpload,
  type urlFetchRequest,
  type urlMultipartInitRequest,
  type urlPresignRequest,
} from "@clipshare/shared";
import type { z } from "zod";
import type { Principal } from "../../auth/principal";
import { badRequest, notFound, validationFailed } from "../../errors";
import type { SecretBox } from "../../lib/crypto";
import { uploadTooLarge } from "../../lib/ingest";
import type { RemoteResponse, SafeFetcher } from "../../lib/net/safe-fetch";
import type { FileShareService } from "../files/file-share-service";
import type { ShareMultipartService } from "../files/share-multipart";
import type { UploadService } from "../files/upload-service";
import { apiActor, checkBitsAndBase } from "../fs/access";
import { normalizeVirtualPath } from "../fs/vpath";
import type { SettingsService } from "../settings/settings-service";
import { presentTask, type TaskService } from "../tasks/task-service";
import { cleanRemoteName, describeRemote } from "./remote-file";
import type { UrlFetchPayload } from "./url-fetch-task";

type PresignInput = z.output<typeof urlPresignRequest>;
type FetchInput = z.output<typeof urlFetchRequest>;
type MultipartInitInput = z.output<typeof urlMultipartInitRequest>;

/** Name, type and size of the remote file as far as known; `corsSupported` only when asked remotely. */
type KnownRemote = Pick<RemoteFileInfo, "filename" | "contentType" | "size"> & { corsSupported: boolean };

export interface UrlUploadDeps {
  fetcher: SafeFetcher;
  uploads: UploadService;
  multipart: ShareMultipartService;
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
      tooLarge: (n) => uploadTooLarge(maxBytes, n).message,
      ...(signal ? { signal } : {}),
    });
  }

  /** The client's metadata when complete (name and type); otherwise the remote server is asked. */
  private async known(url: string, metadata: PresignInput["metadata"]): Promise<KnownRemote> {
    this.deps.fetcher.check(url);
    if (metadata?.filename && metadata.contentType) {
      return {
        filename: metadata.filename,
        contentType: metadata.contentType,
        size: metadata.size ?? null,
        corsSupported: false,
      };
    }
    return this.info(url);
  }

  /** POST /url/presign: the share is reserved like s3/presign, named and typed after the remote file. */
  async presign(
    principal: Principal,
    input: PresignInput,
    publicOrigin: string,
  ): Promise<UrlPresignedUpload> {
    const { url, metadata, filename, ...options } = input;
    const known = await this.known(url, metadata);
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
    return { ...data, cors_supported: known.corsSupported, source_url: url };
  }

  /**
   * POST /url/multipart/init: a share uploaded in parts (files/multipart/init),
   * named, typed and sized after the remote file. complete and abort are the
   * share multipart service's own.
   */
  async multipartInit(
    principal: Principal,
    input: MultipartInitInput,
    publicOrigin: string,
  ): Promise<UrlMultipartStarted> {
    const { url, metadata, filename, total_size, part_size, part_count, ...options } = input;
    const known = await this.known(url, metadata);
    const size = total_size ?? known.size;
    if (!size) {
      throw badRequest(
        "The remote file's size is unknown; send total_size, or upload it with url/presign or a server fetch",
        "size_unknown",
      );
    }
    const problem = partPlanProblem(size, part_size, part_count);
    if (problem) throw validationFailed(problem);
    const data = await this.deps.multipart.init(
      principal,
      {
        ...options,
        filename: filename ?? cleanRemoteName(known.filename),
        mimetype: options.mimetype ?? known.contentType,
        total_size: size,
        part_size,
        part_count,
      },
      publicOrigin,
    );
    return { ...data, cors_supported: known.corsSupported, source_url: url };
  }

  /** POST /url/cancel: the reserved share and whatever reached storage go away. */
  async cancel(principal: Principal, fileId: string) {
    const { success } = await this.deps.shares.batchDelete(principal, { ids: [fileId], delete_mode: "both" });
    if (success !== 1) throw notFound("File does not exist or was deleted", "file_not_found");
    return { file_id: fileId, status: "cancelled" };
  }

  /** POST /url/fetch: queue a server-side download into a new share or an explorer directory. */
  async queueFetch(principal: Principal, input: FetchInput) {
    const { url, filename, target_path, password, ...options } = input;
    this.deps.fetcher.check(url);
    let targetPath: string | undefined;
    if (target_path) {
      targetPath = normalizeVirtualPath(target_path);
      // The tree checks the target again, folder rules included, when the fetch writes it.
      checkBitsAndBase(apiActor(principal), "upload", targetPath);
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
