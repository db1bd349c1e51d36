import { FolderCog, Globe } from "lucide-react";
import { useState } from "react";
import { OfflineCopyMark } from "../../../components/offline/offline-copy-mark";
import { SignInRequired } from "../../../components/sign-in-required";
import { Button } from "../../../components/ui/button";
import { Spinner } from "../../../components/ui/spinner";
import { useTranslation } from "../../../i18n";
import { useCapabilities } from "../../../lib/auth-store";
import { useExplorer } from "../hooks/use-explorer";
import { usePublicBrowsing } from "../hooks/use-fs";
import { ExplorerBody } from "./explorer-body";
import { ExplorerOverlays, UploadInputs } from "./explorer-dialogs";
import { ExplorerHeader } from "./explorer-header";
import { ExplorerToolbar } from "./explorer-toolbar";
import {
  FolderNotes,
  FolderSettingsDialog,
  FolderUnlock,
  lockedFolderOf,
  useFolderView,
} from "./folder-settings";
import { SelectionBar } from "./selection-bar";

/**
 * The mount browser at /mount-explorer/{path...}, with `?preview=<file>`.
 * Signed-out visitors get the public part read-only where the server has one
 * (public browsing), else a sign-in prompt; keys without mount permission are
 * told what they lack (no listing request is made); everyone else gets the
 * explorer.
 */
export function ExplorerPage() {
  const caps = useCapabilities();
  const { t } = useTranslation();
  const publicPart = usePublicBrowsing(!caps.isAuthenticated);
  if (caps.mount) return <Explorer />;
  if (!caps.isAuthenticated && (publicPart.data?.roots.length ?? 0) > 0) return <Explorer visitor />;
  if (!caps.isAuthenticated && publicPart.isPending)
    return (
      <div className="flex justify-center py-10">
        <Spinner />
      </div>
    );
  return (
    <div className="mx-auto w-full max-w-3xl space-y-4 px-3 py-8 sm:px-6">
      <h1 className="text-2xl font-semibold tracking-tight">{t("explorer.title")}</h1>
      {caps.isAuthenticated ? (
        // Signing in again would not help: say what this key lacks.
        <SignInRequired
          title={t("explorer.signIn.keyTitle")}
          description={t("explorer.signIn.keyDescription")}
        />
      ) : (
        <SignInRequired
          title={t("explorer.signIn.title")}
          description={t("explorer.signIn.description")}
          action={t("explorer.signIn.action")}
        />
      )}
    </div>
  );
}

/** The explorer: the controller hook holds state and actions, these views show them. */
function Explorer({ visitor = false }: { visitor?: boolean }) {
  const x = useExplorer();
  const { t } = useTranslation();
  const [settingsOpen, setSettingsOpen] = useState(false);
  // Folder notes and settings belong to folders inside mounts; a locked folder shows its prompt instead.
  const locked = lockedFolderOf(x.dir.error);
  const folder = useFolderView(x.path, x.path !== "/" && locked === null && x.dir.isSuccess);
  return (
    <div className="mx-auto w-full max-w-7xl space-y-3 px-3 py-4 sm:px-6">
      <h1 className="sr-only">{t("explorer.title")}</h1>
      <ExplorerHeader x={x} />
      {visitor ? (
        <SignInRequired
          tone="info"
          title={t("explorer.visitor.title")}
          description={t("explorer.visitor.description")}
          action={t("explorer.visitor.action")}
        />
      ) : null}
      <OfflineCopyMark at={x.listing?.offlineCopyAt} />
      {folder.data?.can_manage && !x.listing?.isVirtual ? (
        <div className="flex flex-wrap items-center justify-end gap-2">
          {folder.data.public ? (
            <span
              data-testid="folder-public"
              className="inline-flex items-center gap-1 rounded-md bg-indigo-50 px-1.5 py-0.5 text-xs font-medium text-indigo-700 dark:bg-indigo-950/60 dark:text-indigo-300"
            >
              <Globe className="h-3 w-3 shrink-0" aria-hidden />
              {t("folderSettings.isPublic")}
            </span>
          ) : null}
          <Button size="sm" variant="outline" onClick={() => setSettingsOpen(true)}>
            <FolderCog className="h-4 w-4" aria-hidden />
            {t("folderSettings.button")}
          </Button>
        </div>
      ) : null}
      {locked ? <FolderUnlock folder={locked} /> : <FolderNotes view={folder.data} />}
      {settingsOpen ? <FolderSettingsDialog path={x.path} onClose={() => setSettingsOpen(false)} /> : null}
      <ExplorerToolbar x={x} />
      <ExplorerBody x={x} />
      <SelectionBar x={x} />
      <UploadInputs x={x} />
      <ExplorerOverlays x={x} />
    </div>
  );
}
