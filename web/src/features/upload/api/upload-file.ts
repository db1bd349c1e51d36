import { uploadMimeType } from "@clipshare/shared";
import { cleanEtag, TransferError } from "../../../lib/upload-engine/errors";
import type { SingleSendContext } from "../../../lib/upload-engine/single-upload";
import { etagFromBody, transfer } from "../../../lib/upload-engine/xhr-transfer";
import { InvalidPresignError, isNetworkTransferError, UploadStepError } from "../../../lib/upload-errors";
import type { UploadFields } from "../upload-form-model";
import { presignBody } from "../upload-form-model";
import { type PresignedUpload, type PublishedFile, uploadsApi, uploadThroughServer } from "./uploads";

/** What a finished upload published. */
export interface UploadResult {
  id: string;
  slug: string;
  filename: string;
  size: number;
  /** Share page path, /file/{slug}. */
  url: string;
  /** "presigned" and "multipart": the bytes went straight to storage; "server": they streamed through ClipShare. */
  method: "presigned" | "multipart" | "server";
}

export function toResult(
  file: PublishedFile,
  fallback: { name: string; size: number },
  method: UploadResult["method"],
) {
  return {
    id: file.id,
    slug: file.slug,
    filename: file.filename ?? fallback.name,
    size: typeof file.size === "number" ? file.size : fallback.size,
    url: `/file/${encodeURIComponent(file.slug)}`,
    method,
  } satisfies UploadResult;
}

/**
 * One file: presign → PUT the bytes to storage (S3's presigned URL,
 * or the signed LOCAL URL on our server) → commit. A PUT that fails after the
 * presign deletes the reserved record; one that got no answer at all (storage
 * unreachable or CORS) is retried through the server as a multipart form.
 */
/** The presign and commit routes of one kind of upload (files from disk, files from a URL). */
export interface PresignRoutes {
  presign: (body: Record<string, unknown>, signal: AbortSignal) => Promise<PresignedUpload | null>;
  commit: (
    body: { file_id: string; etag: string | null; size: number },
    signal: AbortSignal,
  ) => Promise<PublishedFile | null>;
}

const shareRoutes: PresignRoutes = {
  presign: (body, signal) => uploadsApi.presign(body, signal),
  commit: (body, signal) => uploadsApi.commit(body, signal),
};

export async function uploadFile(
  file: File,
  name: string,
  fields: UploadFields,
  cb: SingleSendContext,
  routes: PresignRoutes = shareRoutes,
) {
  const mimetype = uploadMimeType(name, file.type);
  const info = { name, size: file.size };

  let presigned: Awaited<ReturnType<typeof uploadsApi.presign>>;
  try {
    presigned = await routes.presign(
      presignBody(fields, { name, size: file.size, type: mimetype }),
      cb.signal,
    );
    if (!presigned?.file_id || !presigned.upload_url) throw new InvalidPresignError();
  } catch (error) {
    throw new UploadStepError("presign", error);
  }

  let etag: string | null = null;
  try {
    const response = await transfer({
      method: "PUT",
      url: presigned.upload_url,
      headers: presigned.upload_headers ?? { "Content-Type": presigned.content_type ?? mimetype },
      body: file,
      signal: cb.signal,
      onProgress: (loaded) => cb.onProgress(loaded),
    });
    if (response.status < 200 || response.status >= 300) throw new TransferError("status", response.status);
    etag = cleanEtag(response.header("ETag") ?? etagFromBody(response.text));
  } catch (error) {
    await uploadsApi.discard(presigned.file_id);
    if (isNetworkTransferError(error) && !cb.signal.aborted) {
      // The browser could not reach the storage (no CORS rule, private endpoint): go through ClipShare.
      cb.onRestart();
      try {
        const published = await uploadThroughServer(file, name, mimetype, fields, {
          signal: cb.signal,
          onProgress: (loaded) => cb.onProgress(loaded),
        });
        return toResult(published, info, "server");
      } catch (fallbackError) {
        throw new UploadStepError("server", fallbackError);
      }
    }
    throw new UploadStepError("transfer", error);
  }

  try {
    const committed = await routes.commit({ file_id: presigned.file_id, etag, size: file.size }, cb.signal);
    if (!committed?.slug) throw new InvalidPresignError();
    return toResult(committed, info, "presigned");
  } catch (error) {
    await uploadsApi.discard(presigned.file_id);
    throw new UploadStepError("commit", error);
  }
}
