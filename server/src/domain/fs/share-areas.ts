/**
 * Where file-share objects live: SHARE_AREA of their storage config, an area
 * no mount shows (docs/decisions/0050-share-area.md). Storages can overlap
 * (two LOCAL configs on nested directories, two S3 configs on one bucket), so
 * a mount hides every share area that lies inside what it shows, not only its
 * own config's.
 */
import path from "node:path";
import { SHARE_AREA } from "@clipshare/shared";
import type { StorageConfigRow } from "../../db/schema";
import { isSameOrInside, joinPath } from "../../storage/path-safety";
import { keepsTempFolder, LOCAL_TEMP_DIR } from "../../storage/reserved-names";

/** The storage-relative path of a share object stored as `name` (already normalized). */
export const shareAreaPath = (name: string): string => joinPath(SHARE_AREA, name);

export const isInShareArea = (storagePath: string): boolean => isSameOrInside(storagePath, SHARE_AREA);

/**
 * One namespace per backend location, and a config's folder in it as
 * "/"-joined segments: LOCAL by absolute directory, S3 by endpoint and bucket
 * with the default folder, a remote tree (WebDAV, SFTP, FTP) by endpoint with
 * its folder. Two configs overlap where one's folder holds the other's.
 */
export function storageLocation(
  config: StorageConfigRow,
  dataDir: string,
): { space: string; folder: string } {
  if (config.storage_type === "LOCAL") {
    const abs = path.resolve(config.root_path ?? path.join(dataDir, "files"));
    return { space: "local", folder: abs.split(path.sep).filter(Boolean).join("/") };
  }
  const endpoint = (config.endpoint_url ?? "").toLowerCase().replace(/\/+$/, "");
  const folder = (config.default_folder ?? "").split("/").filter(Boolean).join("/");
  if (config.storage_type !== "S3")
    return { space: `${config.storage_type.toLowerCase()}:${endpoint}`, folder };
  return { space: `s3:${endpoint}/${config.bucket_name ?? ""}`, folder };
}

/**
 * Storage-relative folders of `config` that another config keeps to itself:
 * every share area, and the temp folder of another config that keeps one (it holds
 * share uploads mid-way). Its own share area is always among them; its own
 * temp folder its driver hides.
 */
export function hiddenAreasOf(
  config: StorageConfigRow,
  all: readonly StorageConfigRow[],
  dataDir: string,
): string[] {
  const self = storageLocation(config, dataDir);
  const hidden = new Set([SHARE_AREA]);
  for (const other of all) {
    const loc = storageLocation(other, dataDir);
    if (loc.space !== self.space) continue;
    const own = other.id === config.id;
    const tempFolder = keepsTempFolder(other.storage_type) && !own;
    const areas = [SHARE_AREA, ...(tempFolder ? [LOCAL_TEMP_DIR] : [])];
    for (const name of areas) {
      const area = joinPath(loc.folder, name);
      // This storage lies inside another's reserved folder: all of it is hidden.
      if (!own && isSameOrInside(self.folder, area)) return [""];
      if (isSameOrInside(area, self.folder))
        hidden.add(self.folder === "" ? area : area.slice(self.folder.length + 1));
    }
  }
  return [...hidden];
}
