import { api } from "../../../lib/api";
import { authorizationHeader, type Credentials } from "../../../lib/api-client";
import { ApiError, classifyUnauthorized } from "../../../lib/api-error";
import { authStore } from "../../../lib/auth-store";
import type { UploadFields } from "../upload-form-model";
import { transfer } from "./transfer";

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
  commit: (body: { file_id: string; etag: string | null }, signal?: AbortSignal) =>
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

function currentCredentials(): Credentials | null {
  const s = authStore.getState();
  if (s.authType === "admin" && s.adminToken) return { type: "admin", token: s.adminToken };
  if (s.authType === "apikey" && s.apiKey) return { type: "apikey", key: s.apiKey };
  return null;
}

/**
 * POST /api/upload: the file through the server as a multipart form. The share
 * fields go first and the file last (the server refuses fields after the file).
 */
export async function uploadThroughServer(
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

  const credentials = currentCredentials();
  const headers: Record<string, string> = { Accept: "application/json" };
  if (credentials) headers.Authorization = authorizationHeader(credentials);
  const language = document.documentElement.lang;
  if (language) headers["Accept-Language"] = language;

  const response = await transfer({
    method: "POST",
    url: api.url("/upload"),
    headers,
    body: form,
    signal: options.signal,
    onProgress: options.onProgress,
  });

  let envelope: { code?: unknown; message?: unknown; error?: unknown; data?: unknown } | null = null;
  try {
    envelope = response.text ? JSON.parse(response.text) : null;
  } catch {
    envelope = null;
  }
  const ok = response.status >= 200 && response.status < 300;
  const code = typeof envelope?.code === "number" ? envelope.code : response.status;
  if (ok && (code === 200 || code === 201)) {
    if (envelope?.data) return envelope.data as PublishedFile;
    throw new ApiError({ kind: "invalid_response", reason: "invalidServerResponse" });
  }

  const errorId = typeof envelope?.error === "string" ? envelope.error : null;
  const authFailure =
    response.status === 401
      ? classifyUnauthorized({
          path: "/upload",
          authType: credentials?.type ?? null,
          context: "default",
          errorId,
        })
      : null;
  if (authFailure === "admin-expired") void authStore.logout("admin-token-expired");
  if (authFailure === "api-key-invalid") void authStore.logout("api-key-invalid");
  throw new ApiError({
    kind: ok ? "envelope" : "http",
    status: ok ? code : response.status,
    errorId,
    serverMessage: typeof envelope?.message === "string" ? envelope.message : null,
    authFailure,
  });
}
