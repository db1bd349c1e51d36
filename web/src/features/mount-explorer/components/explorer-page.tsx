import { LogIn, ShieldAlert } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { buttonClasses } from "../../../components/ui/button";
import { useCapabilities } from "../../../lib/auth-store";
import { OfflineCopyMark } from "../../offline";
import { useExplorer } from "../hooks/use-explorer";
import { ExplorerBody } from "./explorer-body";
import { ExplorerOverlays, UploadInputs } from "./explorer-dialogs";
import { ExplorerHeader } from "./explorer-header";
import { ExplorerToolbar, SelectionBar } from "./explorer-toolbar";

/**
 * The mount browser at /mount-explorer/{path...}, with `?preview=<file>`.
 * Signed-out visitors and keys without mount permission get a
 * prompt (no listing request is made); everyone else gets the explorer.
 */
export function ExplorerPage() {
  const caps = useCapabilities();
  const { t } = useTranslation();
  if (caps.mount) return <Explorer />;
  return (
    <div className="mx-auto w-full max-w-3xl space-y-4 px-3 py-8 sm:px-6">
      <h1 className="text-2xl font-semibold tracking-tight">{t("explorer.title")}</h1>
      <section
        aria-labelledby="explorer-sign-in-title"
        className="flex flex-col gap-3 rounded-2xl border border-amber-200 bg-amber-50 p-4 text-amber-900 sm:flex-row sm:items-center dark:border-amber-900/60 dark:bg-amber-950/30 dark:text-amber-100"
      >
        <ShieldAlert className="h-6 w-6 shrink-0 text-amber-600 dark:text-amber-400" aria-hidden />
        <div className="min-w-0 flex-1">
          <h2 id="explorer-sign-in-title" className="text-sm font-semibold">
            {t("explorer.signIn.title")}
          </h2>
          <p className="mt-0.5 text-sm text-amber-800 dark:text-amber-200/90">
            {t("explorer.signIn.description")}
          </p>
        </div>
        <Link to="/admin" className={buttonClasses("primary", "md", "self-start sm:self-auto")}>
          <LogIn className="h-4 w-4" aria-hidden />
          {t("explorer.signIn.action")}
        </Link>
      </section>
    </div>
  );
}

/** The explorer: the controller hook holds state and actions, these views show them. */
function Explorer() {
  const x = useExplorer();
  const { t } = useTranslation();
  return (
    <div className="mx-auto w-full max-w-7xl space-y-3 px-3 py-4 sm:px-6">
      <h1 className="sr-only">{t("explorer.title")}</h1>
      <ExplorerHeader x={x} />
      <OfflineCopyMark at={x.listing?.offlineCopyAt} />
      {/* On phones the selection bar lies over the toolbar instead of pushing the list down: a
          long-press selects its row, and the finger must still be on that row when it lifts. */}
      <div className="relative">
        <ExplorerToolbar x={x} />
        <SelectionBar x={x} />
      </div>
      <ExplorerBody x={x} />
      <UploadInputs x={x} />
      <ExplorerOverlays x={x} />
    </div>
  );
}
