import { Ban, Clock, FileQuestion, RotateCcw } from "lucide-react";
import { Link } from "react-router";
import { useTranslation } from "../i18n";
import { StatusCard } from "./status-card";
import { Button, buttonClasses } from "./ui/button";

export type UnavailableReason = "missing" | "expired" | "used-up" | "failed";

/** Title and description per reason; "failed" has only its title, the message is the description. */
export type UnavailableTexts = Record<Exclude<UnavailableReason, "failed">, [string, string]> & {
  failed: string;
};

/**
 * The clear pages for a missing, expired or used-up share (and one for other failures), in the
 * words of a file share unless `texts` names the kind of share (a collection).
 */
export function ShareUnavailable({
  reason,
  message,
  onRetry,
  texts,
}: {
  reason: UnavailableReason;
  /** For "failed": what went wrong. */
  message?: string;
  onRetry?: () => void;
  texts?: UnavailableTexts;
}) {
  const { t } = useTranslation();
  const Icon = reason === "expired" ? Clock : reason === "used-up" ? Ban : FileQuestion;
  const words: UnavailableTexts = texts ?? {
    missing: [t("fileView.missing.title"), t("fileView.missing.description")],
    expired: [t("fileView.expired.title"), t("fileView.expired.description")],
    "used-up": [t("fileView.usedUp.title"), t("fileView.usedUp.description")],
    failed: t("fileView.failed.title"),
  };
  const [title, description] =
    reason === "failed" ? [words.failed, message ?? t("errors.unknown")] : words[reason];
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
