import { api } from "../../../lib/api";

export type FileShareState = "ok" | "expired" | "view_limit";

/** A row of GET /api/files (no password hash, ever). */
export interface FileShare {
  id: string;
  slug: string;
  filename: string;
  mimetype: string;
  size: number;
  remark: string | null;
  storage_config_id: string | null;
  storage_type: "LOCAL" | "S3" | null;
  storage_path: string;
  storage_config_name: string | null;
  storage_provider_type: string | null;
  has_password: boolean;
  expires_at: string | null;
  max_views: number | null;
  views: number;
  remaining_views: number | null;
  is_expired: boolean;
  state: FileShareState;
  use_proxy: boolean;
  /** Set while the upload never finished: the row only reserves its link suffix. */
  upload_state?: "uploading" | "incomplete" | null;
  upload_expires_at?: string | null;
  created_by: string | null;
  key_name: string | null;
  created_at: string;
  updated_at: string;
  url: string;
}

export interface FileShareDetail extends FileShare {
  urls: { previewUrl: string; downloadUrl: string; use_proxy: boolean };
}

export interface FileListQuery {
  limit: number;
  offset: number;
  search?: string;
  storage_config_id?: string;
}

export interface FileListPage {
  files: FileShare[];
  pagination: { total: number; limit: number; offset: number; hasMore: boolean };
}

/** Body of PUT /api/files/:id: only what changes. */
export interface UpdateFileBody {
  filename?: string;
  slug?: string;
  remark?: string | null;
  /** "" clears the password. */
  password?: string;
  expires_at?: string | null;
  max_views?: number;
  use_proxy?: boolean;
}

export type DeleteMode = "both" | "record_only";

export interface BatchDeleteResult {
  success: number;
  failed: { id: string; error: string }[];
}

/** A storage config with its usage (GET /api/s3-configs). */
export interface StorageUsage {
  id: string;
  name: string;
  storage_type: "LOCAL" | "S3";
  provider_type: string | null;
  is_default: boolean;
  total_storage_bytes: number | null;
  usage?: { file_count: number; total_size: number };
}

const idPath = (id: string) => `/files/${encodeURIComponent(id)}`;

export const fileSharesApi = {
  list: (query: FileListQuery, signal?: AbortSignal) =>
    api.get<FileListPage>("/files", { query: { ...query }, signal }),
  get: (id: string, signal?: AbortSignal) => api.get<FileShareDetail>(idPath(id), { signal }),
  update: (id: string, body: UpdateFileBody) => api.put<FileShare>(idPath(id), body),
  batchDelete: (ids: string[], deleteMode: DeleteMode) =>
    api.delete<BatchDeleteResult>("/files/batch-delete", { ids, delete_mode: deleteMode }),
  storageUsage: (signal?: AbortSignal) => api.get<StorageUsage[]>("/s3-configs", { signal }),
};
