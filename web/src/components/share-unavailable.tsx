import { Ban, Clock, FileQuestion, RotateCcw } from "lucide-react";
import { Link } from "react-router";
import { type TextKey, useTranslation } from "../i18n";
import { isApiError } from "../lib/api-error";
import { useErrorText } from "../lib/use-error-text";
import { StatusCard } from "./status-card";
import { Button, buttonClasses } from "./ui/button";

export type UnavailableReason = "missing" | "expired" | "used-up" | "failed";

/** The kinds of share a visitor opens by link; each names its own view-limit error (`paste_view_limit`, …). */
export type ShareKind = "file" | "collection" | "paste";

/** Each kind's title and description per reason; "failed" has only its title (the error is the description). */
const TEXT_KEYS: Record<
  ShareKind,
  Record<Exclude<UnavailableReason, "failed">, [TextKey, TextKey]> & { failed: TextKey }
> = {
  file: {
    missing: ["fileView.missing.title", "fileView.missing.description"],
    expired: ["fileView.expired.title", "fileView.expired.description"],
    "used-up": ["fileView.usedUp.title", "fileView.usedUp.description"],
    failed: "fileView.failed.title",
  },
  collection: {
    missing: ["collectionView.missing.title", "collectionView.missing.description"],
    expired: ["collectionView.expired.title", "collectionView.expired.description"],
    "used-up": ["collectionView.usedUp.title", "collectionView.usedUp.description"],
    failed: "collectionView.failed",
  },
  paste: {
    missing: ["pasteView.unavailable.notFound.title", "pasteView.unavailable.notFound.description"],
    expired: ["pasteView.unavailable.expired.title", "pasteView.unavailable.expired.description"],
    "used-up": ["pasteView.unavailable.viewLimit.title", "pasteView.unavailable.viewLimit.description"],
    failed: "errors.unknown",
  },
};

/** Which page an error means: 404 missing, 410 expired or used up (the kind's view-limit code); null otherwise. */
export function unavailableReason(
  error: unknown,
  kind: ShareKind,
): Exclude<UnavailableReason, "failed"> | null {
  if (!isApiError(error) || error.kind !== "http") return null;
  if (error.status === 404) return "missing";
  if (error.status === 410) return error.errorId === `${kind}_view_limit` ? "used-up" : "expired";
  return null;
}

/** The clear pages for a missing, expired or used-up share (and one for other failures), in the words of its kind. */
export function ShareUnavailable({
  kind,
  reason,
  message,
  onRetry,
}: {
  kind: ShareKind;
  reason: UnavailableReason;
  /** For "failed": what went wrong. */
  message?: string;
  onRetry?: () => void;
}) {
  const { t } = useTranslation();
  const Icon = reason === "expired" ? Clock : reason === "used-up" ? Ban : FileQuestion;
  const keys = TEXT_KEYS[kind];
  const [title, description] =
    reason === "failed"
      ? [t(keys.failed), message ?? t("errors.unknown")]
      : [t(keys[reason][0]), t(keys[reason][1])];
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

/** A share that could not be loaded: its unavailable page, or "failed" with the error and a retry. */
export function ShareLoadFailure({
  kind,
  error,
  onRetry,
}: {
  kind: ShareKind;
  error: unknown;
  onRetry: () => void;
}) {
  const errorText = useErrorText();
  const reason = unavailableReason(error, kind);
  return reason ? (
    <ShareUnavailable kind={kind} reason={reason} />
  ) : (
    <ShareUnavailable kind={kind} reason="failed" message={errorText(error)} onRetry={onRetry} />
  );
}
