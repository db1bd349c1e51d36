import { api } from "../../../lib/api";
import { postUploadForm } from "../../../lib/upload-engine/form-upload";
import type { UploadFields } from "../upload-form-model";

/** A storage config as the upload form needs it (GET /api/s3-configs). */
export interface UploadStorageConfig {
  id: string;
  name: string;
  storage_type: "LOCAL" | "S3";
  provider_type: string | null;
  is_default: boolean;
  is_public: boolean;
}

/** data of GET /api/system/max-upload-size. */
export interface MaxUploadSize {
  max_upload_size: number;
  max_upload_size_unit: string;
  max_upload_size_bytes: number;
}

/** data of POST /api/s3/presign. */
export interface PresignedUpload {
  file_id: string;
  upload_url: string;
  upload_headers?: Record<string, string>;
  upload_method?: string;
  slug: string;
  url?: string;
  contentType?: string;
  provider_type?: string | null;
  storage_type?: "LOCAL" | "S3";
}

/** A published share as commit and /upload answer it (the fields the page uses). */
export interface PublishedFile {
  id: string;
  slug: string;
  filename: string;
  size: number;
  mimetype?: string;
  url?: string;
  previewUrl?: string;
  downloadUrl?: string;
}

/** A row of GET /api/files (recent uploads). */
export interface RecentFile {
  id: string;
  slug: string;
  filename: string;
  size: number;
  mimetype: string;
  created_at: string;
  has_password?: boolean;
}

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
  /** Removes the record of an upload that did not make it (spec §4); best effort. */
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
