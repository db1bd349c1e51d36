import type {
  FileBatchDeleteResult,
  FileShare,
  FileShareDetail,
  FileShareList,
  ShareState,
  StorageConfigDto,
} from "@clipshare/shared";
import { api } from "../../../lib/api";

export type {
  FileBatchDeleteResult as BatchDeleteResult,
  FileShare,
  FileShareDetail,
  FileShareList as FileListPage,
  ShareState as FileShareState,
};

export interface FileListQuery {
  limit: number;
  offset: number;
  search?: string;
  storage_config_id?: string;
  /** Administrators: only this user's shares. */
  owner_id?: string;
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

/** A storage config with its usage (GET /api/s3-configs). */
export type StorageUsage = StorageConfigDto;

const idPath = (id: string) => `/files/${encodeURIComponent(id)}`;

export const fileSharesApi = {
  list: (query: FileListQuery, signal?: AbortSignal) =>
    api.get<FileShareList>("/files", { query: { ...query }, signal }),
  get: (id: string, signal?: AbortSignal) => api.get<FileShareDetail>(idPath(id), { signal }),
  update: (id: string, body: UpdateFileBody) => api.put<FileShare>(idPath(id), body),
  batchDelete: (ids: string[], deleteMode: DeleteMode) =>
    api.delete<FileBatchDeleteResult>("/files/batch-delete", { ids, delete_mode: deleteMode }),
  storageUsage: (signal?: AbortSignal) => api.get<StorageConfigDto[]>("/s3-configs", { signal }),
};
