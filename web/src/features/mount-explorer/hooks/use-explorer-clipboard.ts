import { toast } from "../../../components/ui/toast";
import { useTranslation } from "../../../i18n";
import { type FsEntry, fsApi } from "../api/fs";
import { copyOutcome } from "../model/copy-outcome";
import { joinPath, normalizePath } from "../model/paths";
import type { SidePanel } from "./use-explorer-dialogs";
import { useBasket } from "./use-explorer-state";

/**
 * Taking entries elsewhere: copy (a task on the server) or move into another
 * folder, and the basket, where files from several folders are gathered.
 */
export function useExplorerClipboard(refresh: () => Promise<unknown>, setPanel: (panel: SidePanel) => void) {
  const { t } = useTranslation();
  const basket = useBasket();

  const addToBasket = (list: FsEntry[]) => {
    const files = list.filter((e) => !e.isDirectory);
    basket.add(files.map((e) => ({ path: normalizePath(e.path), name: e.name, size: e.size })));
    toast(t("explorer.basketAdded", { count: files.length }), "success");
  };

  const copyOrMove = async (mode: "copy" | "move", list: FsEntry[], dest: string, skipExisting: boolean) => {
    if (mode === "copy") {
      const result =
        list.length > 0
          ? await fsApi.batchCopy(
              list.map((e) => ({
                sourcePath: e.path,
                targetPath: e.isDirectory ? `${joinPath(dest, e.name)}/` : joinPath(dest, e.name),
              })),
              skipExisting,
            )
          : null;
      const outcome = copyOutcome(list.length, result);
      if (outcome.key === "explorer.copyQueued") setPanel("tasks");
      toast("params" in outcome ? t(outcome.key, outcome.params) : t(outcome.key), outcome.tone);
    } else {
      for (const e of list) await fsApi.rename(normalizePath(e.path), joinPath(dest, e.name));
      toast(t("explorer.moveDone", { count: list.length }), "success");
    }
    await refresh();
  };

  return { basket, addToBasket, copyOrMove };
}
