import type {
  FsArchiveListing,
  LockedPublicFile,
  OfficeViewerUrls,
  PublicFile,
  ThumbnailSize,
} from "@clipshare/shared";
import { api } from "./api";
import { backendUrl } from "./share-links";

export type { LockedPublicFile, OfficeViewerUrls, PublicFile };

const slugPath = (slug: string) => encodeURIComponent(slug);

export const publicFilesApi = {
  /** Counts a view when the file is handed out (not while a password is needed). */
  get: (slug: string, signal?: AbortSignal) =>
    api.get<PublicFile | LockedPublicFile>(`/public/files/${slugPath(slug)}`, { signal }),
  verify: (slug: string, password: string) =>
    api.post<PublicFile>(
      `/public/files/${slugPath(slug)}/verify`,
      { password },
      { context: "password", offline: "file-verify" },
    ),
  officeViewers: (slug: string, token: string | null, signal?: AbortSignal) =>
    api.get<OfficeViewerUrls>(`/office-preview/${slugPath(slug)}`, { query: { token }, signal }),
  /** The entries of a shared archive, under the access of its preview URL. */
  archive: (slug: string, token: string | null, signal?: AbortSignal) =>
    api.get<FsArchiveListing>(`/file-archive/${slugPath(slug)}`, { query: { token }, signal }),
};

/** One entry of a shared archive, under the access of its preview URL. */
export async function fetchArchiveEntry(
  slug: string,
  previewUrl: string,
  entry: string,
  signal?: AbortSignal,
): Promise<Blob> {
  const token = tokenOf(previewUrl);
  const query = new URLSearchParams({ entry, ...(token ? { token } : {}) });
  const res = await fetch(backendUrl(`/api/file-archive/${slugPath(slug)}/entry?${query}`), { signal });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  return res.blob();
}

/** The access token carried by a preview URL ("…?token=…"). */
export function tokenOf(url: string | undefined): string | null {
  if (!url) return null;
  try {
    return new URL(url, "http://x").searchParams.get("token");
  } catch {
    return null;
  }
}

/** A WebP frame of a shared video or image, under the same access as its preview URL (uses no view). */
export function thumbnailUrl(slug: string, previewUrl: string, size: ThumbnailSize = 1024): string {
  const token = tokenOf(previewUrl);
  const query = `size=${size}${token ? `&token=${encodeURIComponent(token)}` : ""}`;
  return backendUrl(`/api/file-thumbnail/${slugPath(slug)}?${query}`);
}

/** The beginning (or all) of a text file, decoded as UTF-8. */
export async function fetchText(previewUrl: string, rangeHeader: string | null, signal?: AbortSignal) {
  const res = await fetch(backendUrl(previewUrl), {
    headers: rangeHeader ? { Range: rangeHeader } : {},
    signal,
  });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  const bytes = await res.arrayBuffer();
  return new TextDecoder("utf-8").decode(bytes);
}
