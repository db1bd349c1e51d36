import type {
  CreatedFileShare,
  FolderPass,
  FolderSettings,
  FolderView,
  FsArchiveListing,
  FsBatchRemoveResult,
  FsCopyResult,
  FsEntry,
  FsFileInfo,
  FsFileLink,
  FsListing,
  FsPublicInfo,
  FsSearchResponse,
  FsSearchResult,
  FsTask,
  FsTaskList,
  FsZipLink,
  ThumbnailSize,
} from "@clipshare/shared";
import { authorizationHeader, buildUrl } from "@clipshare/shared";
import type { ArchiveSource } from "../../../components/file-preview/archive-preview";
import { api, apiBase } from "../../../lib/api";
import { currentCredentials } from "../../../lib/auth-store";
import { folderPassHeaders, rememberFolderPass } from "../../../lib/folder-passes";
import { saveLink } from "../../../lib/save-link";
import { backendUrl } from "../../../lib/share-links";
import { postUploadForm } from "../../../lib/upload-engine/form-upload";

/** The answers of the file-system API, as the server's wire contract describes them. */
export type {
  CreatedFileShare as CreatedShare,
  FsArchiveListing,
  FsCopyResult as CopyResult,
  FsEntry,
  FsFileInfo,
  FsFileLink as FileLink,
  FsListing,
  FsSearchResult as SearchResult,
  FsTask,
};

/** The share options of POST /fs/create-share (each sent only when set). */
export interface ShareOptions {
  remark?: string;
  slug?: string;
  password?: string;
  expires_in?: number;
  max_views?: number;
  no_log?: boolean;
}

/** Page size of directory listings: one screen of rows plus room to scroll. */
export const LIST_PAGE_SIZE = 500;

export { currentCredentials };

export function fsUrl(
  path: string,
  query?: Record<string, string | number | boolean | string[] | undefined>,
) {
  return buildUrl(apiBase.url, path, query);
}

/** A file-system route that answers with bytes, read with the signed-in credentials. */
async function readBytes(
  route: string,
  query: Record<string, string>,
  signal?: AbortSignal,
): Promise<Response> {
  const creds = currentCredentials();
  const res = await fetch(fsUrl(route, query), {
    headers: { ...folderPassHeaders(), ...(creds ? { Authorization: authorizationHeader(creds) } : {}) },
    signal,
  });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  return res;
}

/** What the folder-settings dialog sends (PUT /admin/folder-settings). */
export interface FolderSettingsInput {
  path: string;
  readme: string | null;
  header: string | null;
  hide_patterns: string;
  /** Absent: keep; null: remove. */
  password?: string | null;
  public_list: boolean | null;
}

export type { FolderSettings, FolderView, FsPublicInfo };

export const fsApi = {
  /** Where visitors without credentials may browse; no roots: public browsing is off. */
  async publicInfo(signal?: AbortSignal): Promise<FsPublicInfo> {
    return (await api.request<FsPublicInfo>("/fs/public", { signal })).data;
  },
  /** What a folder shows above its listing, and its own settings for the admin. */
  async folder(path: string, signal?: AbortSignal): Promise<FolderView> {
    return (await api.request<FolderView>("/fs/folder", { query: { path }, signal })).data;
  },
  /** Enters a folder's password; the pass is then sent with every request of this tab. */
  async unlockFolder(path: string, password: string): Promise<void> {
    const pass = (await api.request<FolderPass>("/fs/unlock", { method: "POST", body: { path, password } }))
      .data;
    rememberFolderPass(pass);
  },
  async saveFolderSettings(input: FolderSettingsInput): Promise<void> {
    await api.request("/admin/folder-settings", { method: "PUT", body: input });
  },
  async removeFolderSettings(path: string): Promise<void> {
    await api.request("/admin/folder-settings", { method: "DELETE", query: { path } });
  },
  async allFolderSettings(signal?: AbortSignal): Promise<FolderSettings[]> {
    return (await api.request<FolderSettings[]>("/admin/folder-settings", { signal })).data;
  },

  async list(path: string, cursor: string | null, signal?: AbortSignal, refresh = false): Promise<FsListing> {
    const res = await api.request<FsListing>("/fs/list", {
      // Folder sizes come from the search index where the mount has one (else they are left out).
      query: {
        path,
        limit: LIST_PAGE_SIZE,
        cursor: cursor ?? undefined,
        refresh: refresh || undefined,
        sizes: true,
      },
      signal,
    });
    return res.data;
  },
  async get(path: string, signal?: AbortSignal): Promise<FsFileInfo> {
    return (await api.request<FsFileInfo>("/fs/get", { query: { path }, signal })).data;
  },
  /** The file's text (for preview and the editor), read with the signed-in credentials. */
  async readText(path: string, signal?: AbortSignal): Promise<string> {
    return (await readBytes("/fs/download", { path }, signal)).text();
  },
  /** An object URL of the file's bytes (images, media, PDF previews without a public link). */
  async readBlob(path: string, signal?: AbortSignal): Promise<Blob> {
    return (await readBytes("/fs/download", { path }, signal)).blob();
  },
  /** The entries inside a ZIP, TAR or TAR.GZ file. */
  async archive(path: string, signal?: AbortSignal): Promise<FsArchiveListing> {
    return (await api.request<FsArchiveListing>("/fs/archive", { query: { path }, signal })).data;
  },
  /** One entry of an archive file, read with the signed-in credentials. */
  async readArchiveEntry(path: string, entry: string, signal?: AbortSignal): Promise<Blob> {
    return (await readBytes("/fs/archive/entry", { path, entry }, signal)).blob();
  },
  /** A WebP thumbnail of an image or video; `version` (the modification time) lets the browser cache it long. */
  async readThumbnail(
    path: string,
    size: ThumbnailSize,
    version: string,
    signal?: AbortSignal,
  ): Promise<Blob> {
    const creds = currentCredentials();
    // The server makes one thumbnail at a time and answers 503 when too many wait: come back as told.
    for (let attempt = 0; ; attempt++) {
      const res = await fetch(fsUrl("/fs/thumbnail", { path, size, v: version || undefined }), {
        headers: { ...folderPassHeaders(), ...(creds ? { Authorization: authorizationHeader(creds) } : {}) },
        signal,
      });
      if (res.ok) return res.blob();
      if (res.status !== 503 || attempt >= 3) throw new Error(`HTTP ${res.status}`);
      const seconds = Number(res.headers.get("retry-after")) || 2;
      await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
      signal?.throwIfAborted();
    }
  },
  async mkdir(path: string): Promise<void> {
    await api.request("/fs/mkdir", { method: "POST", body: { path } });
  },
  async rename(oldPath: string, newPath: string): Promise<void> {
    await api.request("/fs/rename", { method: "POST", body: { oldPath, newPath } });
  },
  async remove(paths: string[]) {
    return (await api.request<FsBatchRemoveResult>("/fs/batch-remove", { method: "DELETE", body: { paths } }))
      .data;
  },
  async update(path: string, content: string): Promise<void> {
    await api.request("/fs/update", { method: "POST", body: { path, content }, upload: true });
  },
  async fileLink(path: string, forceDownload: boolean, expiresIn?: number): Promise<FsFileLink> {
    return (
      await api.request<FsFileLink>("/fs/file-link", {
        query: { path, force_download: forceDownload, expires_in: expiresIn },
      })
    ).data;
  },
  async createShare(path: string, options: ShareOptions): Promise<CreatedFileShare> {
    return (
      await api.request<CreatedFileShare>("/fs/create-share", { method: "POST", body: { path, ...options } })
    ).data;
  },
  async search(
    q: string,
    scope: "global" | "mount" | "directory",
    at: { path?: string; mountId?: string | null },
    filters: { type?: "file" | "directory" | undefined } = {},
    signal?: AbortSignal,
  ) {
    return (
      await api.request<FsSearchResponse>("/fs/search", {
        query: {
          q,
          scope,
          limit: 100,
          path: scope === "directory" ? at.path : undefined,
          mount_id: scope === "mount" ? (at.mountId ?? undefined) : undefined,
          type: filters.type,
        },
        signal,
      })
    ).data;
  },
  async batchCopy(items: { sourcePath: string; targetPath: string }[], skipExisting: boolean) {
    return (
      await api.request<FsCopyResult>("/fs/batch-copy", {
        method: "POST",
        body: { items, skipExisting },
        timeoutMs: 0,
      })
    ).data;
  },
  async zipLink(paths: string[], name: string) {
    return (
      await api.request<FsZipLink>("/fs/zip/link", {
        method: "POST",
        body: { paths, name },
      })
    ).data;
  },
  async tasks(signal?: AbortSignal) {
    return (await api.request<FsTaskList>("/fs/tasks", { query: { limit: 20 }, signal })).data;
  },
  async cancelTask(id: string) {
    await api.request(`/fs/tasks/${encodeURIComponent(id)}/cancel`, { method: "POST" });
  },
  async deleteTask(id: string) {
    await api.request(`/fs/tasks/${encodeURIComponent(id)}`, { method: "DELETE" });
  },
};

/** An explorer file as the archive preview's source, read with the signed-in credentials. */
export function explorerArchive(path: string): ArchiveSource {
  return {
    key: ["fs", "archive", path],
    list: (signal) => fsApi.archive(path, signal),
    read: (entry, signal) => fsApi.readArchiveEntry(path, entry, signal),
  };
}

/** POST /api/fs/upload (multipart: `path` = the target directory, `use_multipart`, then `file`) with upload progress. */
export function uploadFile(
  dir: string,
  file: Blob,
  name: string,
  onProgress: (loaded: number, total: number) => void,
  signal?: AbortSignal,
): Promise<unknown> {
  const form = new FormData();
  form.append("path", dir.endsWith("/") ? dir : `${dir}/`);
  // Naming the mode before the file lets the server stream it straight into place.
  form.append("use_multipart", "false");
  form.append("file", file, name);
  return postUploadForm("/fs/upload", form, { signal, onProgress });
}

/** Has the browser save `paths` as one ZIP (a signed GET link, so the ZIP streams as an ordinary download). */
export async function saveZip(paths: string[], name: string): Promise<void> {
  const link = await fsApi.zipLink(paths, name);
  saveLink(backendUrl(link.url), link.filename);
}
