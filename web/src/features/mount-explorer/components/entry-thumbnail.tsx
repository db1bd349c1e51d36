import type { ThumbnailSize } from "@clipshare/shared";
import { type ReactNode, useEffect, useState } from "react";
import { type FsEntry, fsApi } from "../api/fs";
import { fileKind } from "../model/paths";

/** Entries the server makes thumbnails of (videos only where it has ffmpeg; others fall back). */
function hasThumbnail(entry: FsEntry): boolean {
  if (entry.isDirectory) return false;
  const kind = fileKind(entry.name, entry.mimetype);
  return kind === "image" || kind === "video";
}

/**
 * An image or video file's thumbnail, fetched with the signed-in credentials
 * (an <img> cannot send them); `children` (the type icon) shows while it loads,
 * for other files, and when the server has none. Decorative: the name is shown beside it.
 */
export function EntryThumbnail({
  entry,
  size = 256,
  className,
  children,
}: {
  entry: FsEntry;
  size?: ThumbnailSize;
  className?: string;
  children: ReactNode;
}) {
  const wanted = hasThumbnail(entry);
  const version = entry.modified ?? "";
  const [src, setSrc] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    if (!wanted) return;
    const abort = new AbortController();
    let url: string | null = null;
    setFailed(false);
    fsApi
      .readThumbnail(entry.path, size, version, abort.signal)
      .then((blob) => {
        url = URL.createObjectURL(blob);
        setSrc(url);
      })
      .catch(() => {
        if (!abort.signal.aborted) setFailed(true);
      });
    return () => {
      abort.abort();
      if (url) URL.revokeObjectURL(url);
      setSrc(null);
    };
  }, [wanted, entry.path, size, version]);

  if (!wanted || failed || !src) return <>{children}</>;
  return (
    <img
      src={src}
      alt=""
      loading="lazy"
      decoding="async"
      draggable={false}
      data-thumbnail={entry.name}
      className={className}
      onError={() => setFailed(true)}
    />
  );
}
