import {
  authorizationHeader,
  errorCodeOf,
  type FsTask,
  type RemoteFileInfo as RemoteFileInfoDto,
} from "@clipshare/shared";
import { api, currentCredentials } from "../../../lib/api";
import { ApiError } from "../../../lib/api-error";
import type { UploadTarget } from "../../../lib/upload-engine/create-upload";
import type { AbsentOn073 } from "../../../lib/wire-types";
import type { UploadFields } from "../upload-form-model";
import { shareTarget } from "./share-target";
import { type PresignRoutes, type UploadResult, uploadFile } from "./upload-file";
import type { PresignedUpload, PublishedFile } from "./uploads";

/** data of POST /api/url/info; a 0.7.3 server sends neither the method nor range support. */
export type RemoteFileInfo = AbsentOn073<RemoteFileInfoDto, "method" | "corsSupported" | "rangesSupported">;

/** A server task as GET /api/fs/tasks/:id shows it (the fields the URL tab reads), its result a published share. */
export type FetchTask = Pick<
  FsTask,
  "id" | "status" | "progress" | "processed_bytes" | "total_bytes" | "error"
> & {
  result: (Partial<PublishedFile> & { slug?: string }) | null;
};

export const urlApi = {
  info: (url: string, signal?: AbortSignal) => api.post<RemoteFileInfo>("/url/info", { url }, { signal }),
  /** "Fetch on the server": a download task straight into storage. */
  fetchOnServer: (body: Record<string, unknown>) => api.post<FetchTask>("/url/fetch", body),
  task: (id: string, signal?: AbortSignal) =>
    api.get<FetchTask>(`/fs/tasks/${encodeURIComponent(id)}`, { signal }),
  cancelTask: (id: string) => api.post(`/fs/tasks/${encodeURIComponent(id)}/cancel`),
};

/** Reads a response body into a Blob, reporting bytes as they arrive. */
async function readBody(res: Response, onProgress: (loaded: number) => void): Promise<Blob> {
  const type = res.headers.get("Content-Type") ?? "application/octet-stream";
  if (!res.body) return res.blob();
  const reader = res.body.getReader();
  const chunks: BlobPart[] = [];
  let loaded = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    loaded += value.byteLength;
    onProgress(loaded);
  }
  return new Blob(chunks, { type });
}

/** Why a remote download failed, as the server's envelope says (proxy) or by status. */
async function downloadError(res: Response): Promise<ApiError> {
  type Envelope = { message?: unknown; error?: unknown } | null;
  const envelope: Envelope = await res.json().then(
    (body: unknown) => body as Envelope,
    () => null,
  );
  return new ApiError({
    kind: "http",
    status: res.status,
    errorId: errorCodeOf(envelope),
    serverMessage: typeof envelope?.message === "string" ? envelope.message : null,
  });
}

/**
 * Downloads the remote file in the browser; when the remote server cannot be
 * read from this page (network error, no CORS) it goes through
 * GET /api/url/proxy, which streams it.
 */
export async function downloadRemote(
  info: RemoteFileInfo,
  options: { signal: AbortSignal; onProgress: (loaded: number) => void },
): Promise<{ file: File; via: "direct" | "proxy" }> {
  let res: Response | null = null;
  try {
    res = await fetch(info.url, { signal: options.signal, credentials: "omit", mode: "cors" });
  } catch (error) {
    if (options.signal.aborted) throw error;
  }
  let via: "direct" | "proxy" = "direct";
  if (!res) {
    via = "proxy";
    const credentials = currentCredentials();
    res = await fetch(api.url("/url/proxy", { url: info.url }), {
      signal: options.signal,
      headers: credentials ? { Authorization: authorizationHeader(credentials) } : {},
    });
  }
  if (!res.ok) throw await downloadError(res);
  const blob = await readBody(res, options.onProgress);
  const file = new File([blob], info.filename, {
    type: info.contentType || blob.type,
    lastModified: info.lastModified ? Date.parse(info.lastModified) || Date.now() : Date.now(),
  });
  return { file, via };
}

/** A downloaded remote file into a share: url/presign → PUT → url/commit, multipart above two parts. */
export function urlTarget(fields: UploadFields, info: RemoteFileInfo): UploadTarget<UploadResult> {
  const routes: PresignRoutes = {
    presign: (body, signal) =>
      api.post<PresignedUpload | null>(
        "/url/presign",
        {
          ...body,
          url: info.url,
          metadata: { filename: info.filename, contentType: info.contentType, size: info.size },
        },
        { signal },
      ),
    commit: (body, signal) => api.post<PublishedFile | null>("/url/commit", body, { signal }),
  };
  const share = shareTarget(fields);
  return {
    ...share,
    scope: JSON.stringify(["url", info.url, share.scope]),
    sendWhole: ({ file, name }, context) => uploadFile(file, name, fields, context, routes),
  };
}
