import { Ban, Clock, FileQuestion, RotateCcw } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { Button, buttonClasses } from "../../../components/ui/button";

export type UnavailableReason = "missing" | "expired" | "used-up" | "failed";

/** The clear pages for a missing, expired or used-up share (and one for other failures). */
export function ShareUnavailable({
  reason,
  message,
  onRetry,
}: {
  reason: UnavailableReason;
  /** For "failed": what went wrong. */
  message?: string;
  onRetry?: () => void;
}) {
  const { t } = useTranslation();
  const Icon = reason === "expired" ? Clock : reason === "used-up" ? Ban : FileQuestion;
  const texts = {
    missing: [t("fileView.missing.title"), t("fileView.missing.description")],
    expired: [t("fileView.expired.title"), t("fileView.expired.description")],
    "used-up": [t("fileView.usedUp.title"), t("fileView.usedUp.description")],
    failed: [t("fileView.failed.title"), message ?? t("errors.unknown")],
  } as const;
  const [title, description] = texts[reason];
  return (
    <section
      className="mx-auto flex max-w-xl flex-col items-center rounded-2xl border border-slate-200 bg-white px-6 py-14 text-center shadow-xs dark:border-slate-800 dark:bg-slate-900"
      data-share-state={reason}
    >
      <div
        className={
          reason === "missing" || reason === "failed"
            ? "mb-4 rounded-2xl bg-slate-100 p-4 dark:bg-slate-800"
            : "mb-4 rounded-2xl bg-amber-50 p-4 dark:bg-amber-950/50"
        }
      >
        <Icon
          className={
            reason === "missing" || reason === "failed"
              ? "h-8 w-8 text-slate-500 dark:text-slate-400"
              : "h-8 w-8 text-amber-600 dark:text-amber-400"
          }
          aria-hidden
        />
      </div>
      <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
      <p className="mt-2 max-w-md text-sm text-slate-600 dark:text-slate-400">{description}</p>
      <div className="mt-6 flex flex-wrap justify-center gap-2">
        {onRetry ? (
          <Button variant="outline" onClick={onRetry}>
            <RotateCcw className="h-4 w-4" aria-hidden />
            {t("fileView.retry")}
          </Button>
        ) : null}
        <Link to="/" className={buttonClasses("primary")}>
          {t("fileView.goHome")}
        </Link>
      </div>
    </section>
  );
}
