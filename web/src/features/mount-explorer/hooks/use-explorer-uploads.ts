import { useEffect, useRef } from "react";
import { toast } from "../../../components/ui/toast";
import { useTranslation } from "../../../i18n";
import { isApiError } from "../../../lib/api-error";
import { queueSummary } from "../../../lib/upload-engine/upload-queue";
import { useUploadQueue } from "../../../lib/upload-engine/use-upload-queue";
import { describeDuplicates, describeUploadFailure } from "../../../lib/upload-errors";
import { useErrorText } from "../../../lib/use-error-text";
import { fsApi } from "../api/fs";
import { type FsUploadResult, fsUploadTarget } from "../api/fs-upload-target";
import { joinPath, parentPath } from "../model/paths";
import type { DroppedFile } from "../model/upload-walk";
import { useRefreshFs } from "./use-fs";

/**
 * Explorer uploads through the upload engine: folders first (mkdir), then each
 * file into its folder. When a batch settles the listing refreshes and a toast
 * sums it up.
 */
export function useExplorerUploads() {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const refresh = useRefreshFs();
  const queue = useUploadQueue<FsUploadResult>({
    describeError: describeUploadFailure,
    describeDuplicates,
  });
  const { busy } = queueSummary(queue.state);
  const batch = useRef<string[]>([]);

  useEffect(() => {
    if (busy || batch.current.length === 0) return;
    const ids = new Set(batch.current);
    batch.current = [];
    const settled = queue.state.items.filter((i) => ids.has(i.id));
    const failed = settled.filter((i) => i.status === "error").length;
    void refresh();
    if (settled.length === 0) return;
    toast(
      failed
        ? t("explorer.uploadFailed", { count: failed })
        : t("explorer.uploadDone", { count: settled.length }),
      failed ? "error" : "success",
    );
  }, [busy, queue.state.items, refresh, t]);

  const upload = async (targetDir: string, files: DroppedFile[], dirs: string[]) => {
    for (const d of dirs) {
      try {
        await fsApi.mkdir(joinPath(targetDir, d));
      } catch (err) {
        if (!(isApiError(err) && err.status === 409)) toast(errorText(err), "error");
      }
    }
    const ids = queue.addFiles(
      files.map((f) => ({
        file: f.file,
        name: f.relativePath,
        target: fsUploadTarget(joinPath(targetDir, parentPath(`/${f.relativePath}`))),
      })),
      true,
    );
    batch.current.push(...ids);
    if (ids.length === 0 && dirs.length > 0) void refresh();
  };

  return { queue, upload };
}
