import { collectionPagePath } from "@clipshare/shared";
import { Download, Eye, Files, HardDrive, Hourglass, LockKeyhole } from "lucide-react";
import { type ReactNode, useState } from "react";
import { useParams } from "react-router";
import { CopyLinkButton } from "../../../components/copy-link-button";
import { PasswordPrompt } from "../../../components/password-prompt";
import { ShareQrButton } from "../../../components/share-qr-code";
import { ShareUnavailable, type UnavailableTexts } from "../../../components/share-unavailable";
import { Alert } from "../../../components/ui/alert";
import { Badge } from "../../../components/ui/badge";
import { buttonClasses } from "../../../components/ui/button";
import { PageSpinner } from "../../../components/ui/spinner";
import { useTranslation } from "../../../i18n";
import { isApiError } from "../../../lib/api-error";
import { formatBytes } from "../../../lib/file-size";
import { formatDateTime } from "../../../lib/format";
import { backendUrl } from "../../../lib/share-links";
import { useErrorText } from "../../../lib/use-error-text";
import type { PublicCollection } from "../api/collections";
import { useCollectionVisit, useUnlockCollection } from "../hooks/use-collection-visit";
import { CollectionBrowser } from "./collection-browser";

type Unavailable = "missing" | "expired" | "used-up";

/** Which page an error means: 404 missing, 410 expired or used up; null for other failures. */
function unavailable(error: unknown): Unavailable | null {
  if (!isApiError(error) || error.kind !== "http") return null;
  if (error.status === 404) return "missing";
  if (error.status === 410) return error.errorId === "collection_view_limit" ? "used-up" : "expired";
  return null;
}

function CollectionUnavailable({
  reason,
  message,
  onRetry,
}: {
  reason: Unavailable | "failed";
  message?: string;
  onRetry?: () => void;
}) {
  const { t } = useTranslation();
  const texts: UnavailableTexts = {
    missing: [t("collectionView.missing.title"), t("collectionView.missing.description")],
    expired: [t("collectionView.expired.title"), t("collectionView.expired.description")],
    "used-up": [t("collectionView.usedUp.title"), t("collectionView.usedUp.description")],
    failed: t("collectionView.failed"),
  };
  return (
    <ShareUnavailable
      reason={reason}
      texts={texts}
      {...(message !== undefined ? { message } : {})}
      {...(onRetry ? { onRetry } : {})}
    />
  );
}

function Meta({ icon: Icon, label, children }: { icon: typeof Files; label: string; children: ReactNode }) {
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

function CollectionHeader({ collection }: { collection: PublicCollection }) {
  const { t, i18n } = useTranslation();
  const link = `${window.location.origin}${collectionPagePath(collection.slug)}`;
  const title = collection.title || t("collectionView.untitled");
  const bytes = collection.items.reduce((sum, item) => sum + (item.size ?? 0), 0);
  const hasFolders = collection.items.some((item) => item.is_directory);
  return (
    <section
      aria-labelledby="collection-title"
      className="rounded-2xl border border-slate-200 bg-white p-5 shadow-xs sm:p-6 dark:border-slate-800 dark:bg-slate-900"
    >
      <h1 id="collection-title" className="text-2xl font-semibold tracking-tight break-words">
        {title}
      </h1>
      {collection.remark ? (
        <p className="mt-1 text-sm break-words text-slate-600 dark:text-slate-300">{collection.remark}</p>
      ) : null}
      {collection.has_password ? (
        <Badge tone="warning" className="mt-2 gap-1">
          <LockKeyhole className="h-3 w-3" aria-hidden />
          {t("pastes.passwordProtected")}
        </Badge>
      ) : null}
      <dl className="mt-5 grid grid-cols-2 gap-4 sm:grid-cols-4">
        <Meta icon={Files} label={t("collectionView.meta.items")}>
          {t("collectionView.itemCount", { count: collection.items.length })}
        </Meta>
        <Meta icon={HardDrive} label={t("fileView.meta.size")}>
          {hasFolders
            ? t("collectionView.meta.sizeWithFolders", { size: formatBytes(bytes) })
            : formatBytes(bytes)}
        </Meta>
        <Meta icon={Eye} label={t("fileView.meta.viewsLeft")}>
          {collection.remaining_views === null ? t("fileView.meta.unlimited") : collection.remaining_views}
        </Meta>
        <Meta icon={Hourglass} label={t("fileView.meta.expires")}>
          {collection.expires_at
            ? formatDateTime(collection.expires_at, i18n.language)
            : t("fileView.meta.never")}
        </Meta>
      </dl>
      <div className="mt-5 flex flex-wrap items-center gap-2">
        {collection.zip_url ? (
          <a href={backendUrl(collection.zip_url)} download className={buttonClasses("primary")}>
            <Download className="h-4 w-4" aria-hidden />
            {t("collectionView.downloadAll")}
          </a>
        ) : null}
        <CopyLinkButton link={link} label={t("collectionView.copyLink")} />
        <ShareQrButton url={link} name={title} />
      </div>
    </section>
  );
}

function CollectionPasswordPrompt({ slug, onGone }: { slug: string; onGone: (error: unknown) => boolean }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const unlock = useUnlockCollection(slug);
  const [error, setError] = useState<string | null>(null);
  return (
    <PasswordPrompt
      title={t("collectionView.password.title")}
      description={t("collectionView.password.description")}
      texts={{
        label: t("fileView.password.label"),
        required: t("collectionView.password.required"),
        submit: t("collectionView.password.submit"),
        checking: t("fileView.password.checking"),
      }}
      busy={unlock.isPending}
      error={error}
      onSubmit={(password) => {
        setError(null);
        unlock.mutateAsync(password).catch((err: unknown) => {
          if (!onGone(err)) setError(errorText(err));
        });
      }}
    />
  );
}

/** /c/:slug: a collection for visitors — what it holds, previews, single downloads and the ZIP of all. */
export function CollectionPage() {
  const { t } = useTranslation();
  const { slug = "" } = useParams();
  const errorText = useErrorText();
  const visit = useCollectionVisit(slug);

  if (visit.isPending) return <PageSpinner />;
  if (visit.isError) {
    const reason = unavailable(visit.error);
    return reason ? (
      <CollectionUnavailable reason={reason} />
    ) : (
      <CollectionUnavailable
        reason="failed"
        message={errorText(visit.error)}
        onRetry={() => void visit.refetch()}
      />
    );
  }
  const data = visit.data;
  if (data.requires_password)
    return (
      <CollectionPasswordPrompt
        slug={data.slug}
        onGone={(error) => {
          if (!unavailable(error)) return false;
          void visit.refetch();
          return true;
        }}
      />
    );
  return (
    <div className="mx-auto max-w-5xl space-y-6">
      <CollectionHeader collection={data} />
      {data.remaining_views === 0 ? <Alert tone="info">{t("collectionView.lastView")}</Alert> : null}
      <CollectionBrowser collection={data} />
    </div>
  );
}
