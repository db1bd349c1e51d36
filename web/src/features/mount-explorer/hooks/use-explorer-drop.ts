import { type DragEvent, useState } from "react";
import { toast } from "../../../components/ui/toast";
import { useTranslation } from "../../../i18n";
import { collectDrop, type DroppedFile } from "../model/upload-walk";

/**
 * Files and folders dropped on the listing become uploads into the folder,
 * folders keeping their structure. A drop is taken over even where nothing may
 * be dropped, so the browser does not open the file instead.
 */
export function useExplorerDrop(opts: {
  canUpload: boolean;
  isVirtual: boolean;
  upload: (files: DroppedFile[], dirs: string[]) => Promise<void>;
}) {
  const { t } = useTranslation();
  const [dragging, setDragging] = useState(false);
  return {
    dragging,
    dropHandlers: {
      onDragOver: (e: DragEvent) => {
        e.preventDefault();
        if (!opts.canUpload || opts.isVirtual) {
          e.dataTransfer.dropEffect = "none";
          return;
        }
        setDragging(true);
      },
      onDragLeave: () => setDragging(false),
      onDrop: (e: DragEvent) => {
        e.preventDefault();
        setDragging(false);
        if (!opts.canUpload) {
          toast(t("explorerAccess.noUpload"), "info");
          return;
        }
        if (opts.isVirtual) {
          toast(t("explorer.dropNotHere"), "error");
          return;
        }
        void collectDrop(e.dataTransfer.items, e.dataTransfer.files).then(({ files, dirs }) =>
          opts.upload(files, dirs),
        );
      },
    },
  };
}
