import { FileIcon } from "lucide-react";
import type { ReactNode } from "react";
import { useTranslation } from "../../../i18n";

/** The top of a shared file's card: its icon, "Shared file", the name, then what the page adds below it. */
export function FileHeading({ name, children }: { name: string; children?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <div className="flex items-start gap-3">
      <div className="rounded-xl bg-indigo-50 p-2.5 dark:bg-indigo-950/60">
        <FileIcon className="h-6 w-6 text-indigo-600 dark:text-indigo-400" aria-hidden />
      </div>
      <div className="min-w-0 flex-1">
        <p className="text-xs font-medium text-slate-500 dark:text-slate-400">{t("fileView.sharedFile")}</p>
        <h1 id="file-title" className="text-xl font-semibold tracking-tight break-all sm:text-2xl">
          {name}
        </h1>
        {children}
      </div>
    </div>
  );
}
