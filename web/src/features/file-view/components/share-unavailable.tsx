import { Ban, Clock, FileQuestion, RotateCcw } from "lucide-react";
import { Link } from "react-router";
import { StatusCard } from "../../../components/status-card";
import { Button, buttonClasses } from "../../../components/ui/button";
import { useTranslation } from "../../../i18n";

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
    <StatusCard
      icon={Icon}
      tone={reason === "missing" || reason === "failed" ? "neutral" : "warning"}
      title={title}
      description={description}
      data-share-state={reason}
      actions={
        <>
          {onRetry ? (
            <Button variant="outline" onClick={onRetry}>
              <RotateCcw className="h-4 w-4" aria-hidden />
              {t("fileView.retry")}
            </Button>
          ) : null}
          <Link to="/" className={buttonClasses("primary")}>
            {t("fileView.goHome")}
          </Link>
        </>
      }
    />
  );
}
