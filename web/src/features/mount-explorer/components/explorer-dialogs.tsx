import { lazy, Suspense } from "react";
import { ShareCollectionDialog } from "../../../components/collections/share-collection-dialog";
import { useTranslation } from "../../../i18n";
import type { ExplorerController } from "../hooks/use-explorer";
import { useExplorerMenu } from "../hooks/use-explorer-menu";
import { collectPickedFolder } from "../model/upload-walk";
import { DeleteDialog, FolderPickerDialog, NameDialog } from "./action-dialogs";
import { ContextMenu } from "./context-menu";
import { DetailsDialog } from "./details-dialog";
import { LinkDialog, ShareDialog } from "./link-dialogs";

const EditDialog = lazy(() => import("./edit-dialog"));
const PreviewOverlay = lazy(() => import("./preview-overlay"));

/** The hidden pickers behind "Upload" and "Upload folder". */
export function UploadInputs({ x }: { x: ExplorerController }) {
  return (
    <>
      <input
        ref={x.fileInput}
        type="file"
        multiple
        hidden
        data-testid="file-input"
        onChange={(e) => {
          const files = [...(e.target.files ?? [])].map((f) => ({ relativePath: f.name, file: f }));
          e.target.value = "";
          void x.upload(files, []);
        }}
      />
      <input
        ref={x.folderInput}
        type="file"
        hidden
        multiple
        {...({ webkitdirectory: "" } as Record<string, string>)}
        onChange={(e) => {
          const { files, dirs } = collectPickedFolder(e.target.files ?? []);
          e.target.value = "";
          void x.upload(files, dirs);
        }}
      />
    </>
  );
}

/** Whatever floats over the listing: the context menu, the open dialog, the preview. */
export function ExplorerOverlays({ x }: { x: ExplorerController }) {
  const { t } = useTranslation();
  const menuItems = useExplorerMenu(x);
  const { dialog, menu } = x;
  const close = () => x.setDialog(null);

  return (
    <>
      {menu ? (
        <ContextMenu
          at={menu.at}
          items={menuItems(menu.entry)}
          label={menu.entry ? menu.entry.name : t("explorer.folderMenu")}
          onClose={x.closeMenu}
        />
      ) : null}

      {dialog?.kind === "mkdir" ? (
        <NameDialog
          title={t("explorer.newFolder")}
          initial=""
          submitLabel={t("explorer.create")}
          onSubmit={x.makeFolder}
          onClose={close}
        />
      ) : null}
      {dialog?.kind === "rename" ? (
        <NameDialog
          title={t("explorer.rename")}
          initial={dialog.entry.name}
          submitLabel={t("explorer.rename")}
          onSubmit={(name) => x.rename(dialog.entry, name)}
          onClose={close}
        />
      ) : null}
      {dialog?.kind === "delete" ? (
        <DeleteDialog entries={dialog.entries} onConfirm={() => x.remove(dialog.entries)} onClose={close} />
      ) : null}
      {dialog?.kind === "copy" || dialog?.kind === "move" ? (
        <FolderPickerDialog
          mode={dialog.kind}
          start={x.path}
          count={dialog.entries.length}
          onPick={(dest, skip) => x.copyOrMove(dialog.kind as "copy" | "move", dialog.entries, dest, skip)}
          onClose={close}
        />
      ) : null}
      {dialog?.kind === "link" ? <LinkDialog entry={dialog.entry} onClose={close} /> : null}
      {dialog?.kind === "share" ? <ShareDialog entry={dialog.entry} onClose={close} /> : null}
      {dialog?.kind === "collection" ? (
        <ShareCollectionDialog
          items={dialog.entries.map((entry) => ({ path: entry.path }))}
          description={
            dialog.entries.length === 1
              ? dialog.entries[0]!.name
              : t("collections.shareSelected", { count: dialog.entries.length })
          }
          onClose={close}
        />
      ) : null}
      {dialog?.kind === "details" ? (
        <DetailsDialog path={dialog.path} name={dialog.name} onClose={close} />
      ) : null}
      {dialog?.kind === "edit" ? (
        <Suspense fallback={null}>
          <EditDialog path={dialog.path} onClose={close} onSaved={() => void x.refresh()} />
        </Suspense>
      ) : null}
      {x.previewEntry ? (
        <Suspense fallback={null}>
          <PreviewOverlay
            entry={x.previewEntry}
            siblings={x.images}
            canManage={x.can.upload || x.can.rename || x.can.delete}
            onNavigate={(e) => x.setPreview(e)}
            onClose={() => x.setPreview(null)}
          />
        </Suspense>
      ) : null}
    </>
  );
}
