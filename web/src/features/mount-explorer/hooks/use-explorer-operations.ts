import { toast } from "../../../components/ui/toast";
import { useTranslation } from "../../../i18n";
import { saveLink } from "../../../lib/save-link";
import { useErrorText } from "../../../lib/use-error-text";
import { type FsEntry, fsApi, saveZip } from "../api/fs";
import { joinPath, normalizePath, parentPath } from "../model/paths";
import type { SidePanel } from "./use-explorer-dialogs";

/** What changes or fetches entries of the folder at `path`; each change reads the listing again. */
export function useExplorerOperations(
  path: string,
  refresh: () => Promise<unknown>,
  setPanel: (panel: SidePanel) => void,
) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  return {
    /** A file as itself, a folder as a ZIP of its tree. */
    download: async (entry: FsEntry) => {
      try {
        if (entry.isDirectory) return await saveZip([entry.path], `${entry.name}.zip`);
        const link = await fsApi.fileLink(entry.path, true, 3600);
        saveLink(link.presignedUrl, entry.name);
      } catch (err) {
        toast(errorText(err), "error");
      }
    },
    /** Reads the listing again, from storage rather than the server's cache. */
    reload: () => void fsApi.list(path, null, undefined, true).then(() => refresh()),
    makeFolder: async (name: string) => {
      await fsApi.mkdir(joinPath(path, name));
      await refresh();
    },
    rename: async (entry: FsEntry, name: string) => {
      const from = normalizePath(entry.path);
      await fsApi.rename(from, joinPath(parentPath(from), name));
      await refresh();
    },
    remove: async (list: FsEntry[]) => {
      const result = await fsApi.remove(list.map((e) => e.path));
      if (result.queued > 0) setPanel("tasks");
      await refresh();
      toast(t("explorer.deleted", { count: result.success }), "success");
    },
  };
}
