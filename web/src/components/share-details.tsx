import { Download, Eye, Hourglass, LockKeyhole, type LucideIcon } from "lucide-react";
import type { ReactNode } from "react";
import { useTranslation } from "../i18n";
import { formatDateTime } from "../lib/format";
import { backendUrl } from "../lib/share-links";
import { Badge } from "./ui/badge";
import { buttonClasses } from "./ui/button";

/** One fact of a share's page (size, type, views left…) with its icon; a child of a `<dl>`. */
export function ShareMeta({
  icon: Icon,
  label,
  children,
}: {
  icon: LucideIcon;
  label: string;
  children: ReactNode;
}) {
  // dt and dd are direct children of this group: a definition list allows no other wrapper.
  return (
    <div className="relative min-w-0 pl-6.5">
      <dt className="text-xs text-slate-500 dark:text-slate-400">
        <Icon className="absolute top-0.5 left-0 h-4 w-4 text-slate-400" aria-hidden />
        {label}
      </dt>
      <dd className="text-sm font-medium break-words text-slate-900 dark:text-slate-100">{children}</dd>
    </div>
  );
}

/** Under a share's title: its remark, and a badge when it has a password. */
export function ShareNotes({
  remark,
  hasPassword,
}: {
  remark: string | null | undefined;
  hasPassword: boolean;
}) {
  const { t } = useTranslation();
  return (
    <>
      {remark ? (
        <p className="mt-1 text-sm break-words text-slate-600 dark:text-slate-300">{remark}</p>
      ) : null}
      {hasPassword ? (
        <Badge tone="warning" className="mt-2 gap-1">
          <LockKeyhole className="h-3 w-3" aria-hidden />
          {t("pastes.passwordProtected")}
        </Badge>
      ) : null}
    </>
  );
}

/** Views left and expiry, the limits every share shows its visitors. */
export function ShareLimits({
  remainingViews,
  expiresAt,
}: {
  remainingViews: number | null;
  expiresAt: string | null | undefined;
}) {
  const { t, i18n } = useTranslation();
  return (
    <>
      <ShareMeta icon={Eye} label={t("fileView.meta.viewsLeft")}>
        {remainingViews === null ? t("fileView.meta.unlimited") : remainingViews}
      </ShareMeta>
      <ShareMeta icon={Hourglass} label={t("fileView.meta.expires")}>
        {expiresAt ? formatDateTime(expiresAt, i18n.language) : t("fileView.meta.never")}
      </ShareMeta>
    </>
  );
}

/** The primary "Download" button of a share's file, saved under its own name. */
export function DownloadButton({ url, filename }: { url: string; filename: string }) {
  const { t } = useTranslation();
  return (
    <a href={backendUrl(url)} download={filename} className={buttonClasses("primary")}>
      <Download className="h-4 w-4" aria-hidden />
      {t("fileView.download")}
    </a>
  );
}
