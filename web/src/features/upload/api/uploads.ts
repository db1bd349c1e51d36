import type {
  FileShare,
  MaxUploadSize,
  PresignedUpload as PresignedUploadDto,
  PublishedFileShare,
  StorageConfigDto,
} from "@clipshare/shared";
import { api } from "../../../lib/api";
import { postUploadForm } from "../../../lib/upload-engine/form-upload";
import type { AbsentOn073 } from "../../../lib/wire-types";
import type { UploadFields } from "../upload-form-model";

/** A storage config as the upload form needs it (GET /api/s3-configs). */
export type UploadStorageConfig = Pick<
  StorageConfigDto,
  "id" | "name" | "storage_type" | "provider_type" | "is_default" | "is_public"
>;

export type { MaxUploadSize };

/** data of POST /api/s3/presign; a 0.7.3 server may leave out the ClipShare additions. */
export type PresignedUpload = AbsentOn073<
  PresignedUploadDto,
  "upload_headers" | "upload_method" | "url" | "content_type" | "provider_type" | "storage_type"
>;

/**
 * A published share as commit, /upload and the multipart completions answer
 * it: the fields the page uses (a multipart completion has no URLs).
 */
export type PublishedFile = Pick<PublishedFileShare, "id" | "slug" | "filename" | "size"> &
  Partial<Pick<PublishedFileShare, "mimetype" | "url" | "previewUrl" | "downloadUrl">>;

/** A row of GET /api/files (recent uploads). */
export type RecentFile = Pick<FileShare, "id" | "slug" | "filename" | "size" | "mimetype" | "created_at"> &
  Partial<Pick<FileShare, "has_password">>;

export const uploadsApi = {
  storageConfigs: (signal?: AbortSignal) => api.get<UploadStorageConfig[]>("/s3-configs", { signal }),
  maxUploadSize: (signal?: AbortSignal) =>
    api.get<MaxUploadSize>("/system/max-upload-size", { signal, auth: "none" }),
  recent: (limit: number, signal?: AbortSignal) =>
    api.get<{ files: RecentFile[] }>("/files", { query: { limit, offset: 0 }, signal }),
  presign: (body: Record<string, unknown>, signal?: AbortSignal) =>
    api.post<PresignedUpload | null>("/s3/presign", body, { signal }),
  commit: (body: { file_id: string; etag: string | null; size?: number }, signal?: AbortSignal) =>
    api.post<PublishedFile | null>("/s3/commit", body, { signal }),
  /** Removes the record of an upload that did not make it; best effort. */
  discard: async (fileId: string) => {
    try {
      await api.delete("/files/batch-delete", { ids: [fileId], delete_mode: "both" });
    } catch {
      // The server sweeps uncommitted uploads anyway.
    }
  },
};

/**
 * POST /api/upload: the file through the server as a multipart form. The share
 * fields go first and the file last (the server refuses fields after the file).
 */
export function uploadThroughServer(
  file: Blob,
  filename: string,
  mimetype: string,
  fields: UploadFields,
  options: { signal?: AbortSignal; onProgress?: (loaded: number, total: number) => void },
): Promise<PublishedFile> {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) if (value !== undefined) form.append(key, value);
  form.append("filename", filename);
  form.append("mimetype", mimetype);
  form.append("size", String(file.size));
  form.append("file", file, filename);
  return postUploadForm<PublishedFile>("/upload", form, options);
}
