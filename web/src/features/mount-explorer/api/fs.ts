import type { TaskStatus, TaskType } from "@clipshare/shared";
import { api, apiBase } from "../../../lib/api";
import { authorizationHeader, buildUrl, type Credentials } from "../../../lib/api-client";
import { authStore } from "../../../lib/auth-store";
import { postUploadForm } from "../../../lib/upload-engine/form-upload";

/** An entry of GET /api/fs/list (spec §7): directories' paths end with "/". */
export interface FsEntry {
  name: string;
  path: string;
  type: "file" | "directory";
  isDirectory: boolean;
  isVirtual: boolean;
  isMount: boolean;
  size: number;
  modified: string | null;
  mimetype: string | null;
  contentType: string | null;
  etag: string | null;
  mount_id: string | null;
  storage_type: string | null;
}

export interface FsListing {
  path: string;
  name: string;
  isRoot: boolean;
  isVirtual: boolean;
  mount_id: string | null;
  storage_type: string | null;
  items: FsEntry[];
  nextCursor: string | null;
  hasMore: boolean;
  cached: boolean;
}

export interface FsFileInfo extends FsEntry {
  preview_url?: string;
  download_url?: string;
}

export interface FileLink {
  presignedUrl: string;
  name: string;
  expiresIn: number;
  expiresAt: string;
  forceDownload: boolean;
}

export interface CopyResult {
  crossStorage: boolean;
  success: number;
  skipped: number;
  failed: number;
  queued: number;
  taskId?: string | null;
}

export interface SearchResult {
  name: string;
  path: string;
  isDirectory?: boolean;
  size?: number;
  modified?: string | null;
  mount_name?: string;
  storage_type?: string;
}

export interface FsTask {
  id: string;
  type: TaskType;
  status: TaskStatus;
  progress: number;
  total_items: number;
  processed_items: number;
  failed_items: number;
  skipped_items: number;
  total_bytes: number;
  processed_bytes: number;
  current_file: string | null;
  error: string | null;
  cancel_requested: boolean;
  notice: string | null;
  created_at?: string;
  updated_at?: string;
}

export interface CreatedShare {
  slug: string;
  url: string;
  filename: string;
  has_password?: boolean;
}

export interface ShareOptions {
  password?: string;
  expires_in?: number;
  max_views?: number;
}

/** Page size of directory listings: one screen of rows plus room to scroll. */
export const LIST_PAGE_SIZE = 500;

export function currentCredentials(): Credentials | null {
  const s = authStore.getState();
  if (s.authType === "admin" && s.adminToken) return { type: "admin", token: s.adminToken };
  if (s.authType === "apikey" && s.apiKey) return { type: "apikey", key: s.apiKey };
  return null;
}

export function fsUrl(
  path: string,
  query?: Record<string, string | number | boolean | string[] | undefined>,
) {
  return buildUrl(apiBase.url, path, query);
}

export const fsApi = {
  async list(path: string, cursor: string | null, signal?: AbortSignal, refresh = false): Promise<FsListing> {
    const res = await api.request<FsListing>("/fs/list", {
      query: { path, limit: LIST_PAGE_SIZE, cursor: cursor ?? undefined, refresh: refresh || undefined },
      signal,
    });
    return res.data;
  },
  async get(path: string, signal?: AbortSignal): Promise<FsFileInfo> {
    return (await api.request<FsFileInfo>("/fs/get", { query: { path }, signal })).data;
  },
  /** The file's text (for preview and the editor), read with the signed-in credentials. */
  async readText(path: string, signal?: AbortSignal): Promise<string> {
    const creds = currentCredentials();
    const res = await fetch(fsUrl("/fs/download", { path }), {
      headers: creds ? { Authorization: authorizationHeader(creds) } : {},
      signal,
    });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    return res.text();
  },
  /** An object URL of the file's bytes (images, media, PDF previews without a public link). */
  async readBlob(path: string, signal?: AbortSignal): Promise<Blob> {
    const creds = currentCredentials();
    const res = await fetch(fsUrl("/fs/download", { path }), {
      headers: creds ? { Authorization: authorizationHeader(creds) } : {},
      signal,
    });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    return res.blob();
  },
  async mkdir(path: string): Promise<void> {
    await api.request("/fs/mkdir", { method: "POST", body: { path } });
  },
  async rename(oldPath: string, newPath: string): Promise<void> {
    await api.request("/fs/rename", { method: "POST", body: { oldPath, newPath } });
  },
  async remove(paths: string[]) {
    return (
      await api.request<{ success: number; failed: unknown[]; queued: number; taskId?: string }>(
        "/fs/batch-remove",
        { method: "DELETE", body: { paths } },
      )
    ).data;
  },
  async update(path: string, content: string): Promise<void> {
    await api.request("/fs/update", { method: "POST", body: { path, content }, upload: true });
  },
  async fileLink(path: string, forceDownload: boolean, expiresIn?: number): Promise<FileLink> {
    return (
      await api.request<FileLink>("/fs/file-link", {
        query: { path, force_download: forceDownload, expires_in: expiresIn },
      })
    ).data;
  },
  async createShare(path: string, options: ShareOptions): Promise<CreatedShare> {
    return (
      await api.request<CreatedShare>("/fs/create-share", { method: "POST", body: { path, ...options } })
    ).data;
  },
  async search(
    q: string,
    scope: "global" | "mount" | "directory",
    at: { path?: string; mountId?: string | null },
    signal?: AbortSignal,
  ) {
    return (
      await api.request<{ results: SearchResult[]; total: number; hasMore: boolean }>("/fs/search", {
        query: {
          q,
          scope,
          limit: 100,
          path: scope === "directory" ? at.path : undefined,
          mount_id: scope === "mount" ? (at.mountId ?? undefined) : undefined,
        },
        signal,
      })
    ).data;
  },
  async batchCopy(items: { sourcePath: string; targetPath: string }[], skipExisting: boolean) {
    return (
      await api.request<CopyResult>("/fs/batch-copy", {
        method: "POST",
        body: { items, skipExisting },
        timeoutMs: 0,
      })
    ).data;
  },
  async zipLink(paths: string[], name: string) {
    return (
      await api.request<{ url: string; filename: string; expiresAt: string }>("/fs/zip/link", {
        method: "POST",
        body: { paths, name },
      })
    ).data;
  },
  async tasks(signal?: AbortSignal) {
    return (
      await api.request<{ tasks: FsTask[]; total: number }>("/fs/tasks", { query: { limit: 20 }, signal })
    ).data;
  },
  async cancelTask(id: string) {
    await api.request(`/fs/tasks/${encodeURIComponent(id)}/cancel`, { method: "POST" });
  },
  async deleteTask(id: string) {
    await api.request(`/fs/tasks/${encodeURIComponent(id)}`, { method: "DELETE" });
  },
};

/** POST /api/fs/upload (multipart: `path` = the target directory, then `file`) with upload progress. */
export function uploadFile(
  dir: string,
  file: Blob,
  name: string,
  onProgress: (loaded: number, total: number) => void,
  signal?: AbortSignal,
): Promise<unknown> {
  const form = new FormData();
  form.append("path", dir.endsWith("/") ? dir : `${dir}/`);
  form.append("file", file, name);
  return postUploadForm("/fs/upload", form, { signal, onProgress });
}
