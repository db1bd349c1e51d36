import { useTranslation } from "../../../i18n";
import { formatCount } from "../../../lib/format";
import type { FsEntry } from "../api/fs";

/** "3 files, 1 folder": the counts of a folder from the index, with their plural forms. */
export function useFolderContents(): (entry: Pick<FsEntry, "folderFiles" | "folderFolders">) => string {
  const { t, i18n } = useTranslation();
  return ({ folderFiles = 0, folderFolders = 0 }) =>
    t("explorer.details.contents", {
      files: t("explorer.details.files", {
        count: folderFiles,
        formatted: formatCount(folderFiles, i18n.language),
      }),
      folders: t("explorer.details.folders", {
        count: folderFolders,
        formatted: formatCount(folderFolders, i18n.language),
      }),
    });
}
