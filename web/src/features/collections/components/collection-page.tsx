import { collectionPagePath } from "@clipshare/shared";
import { Download, Files, HardDrive } from "lucide-react";
import { useState } from "react";
import { useParams } from "react-router";
import { CopyLinkButton } from "../../../components/copy-link-button";
import { PasswordPrompt } from "../../../components/password-prompt";
import { ShareLimits, ShareMeta, ShareNotes } from "../../../components/share-details";
import { ShareQrButton } from "../../../components/share-qr-code";
import { ShareLoadFailure, unavailableReason } from "../../../components/share-unavailable";
import { Alert } from "../../../components/ui/alert";
import { buttonClasses } from "../../../components/ui/button";
import { PageSpinner } from "../../../components/ui/spinner";
import { useTranslation } from "../../../i18n";
import { formatBytes } from "../../../lib/file-size";
import { backendUrl } from "../../../lib/share-links";
import { useErrorText } from "../../../lib/use-error-text";
import type { PublicCollection } from "../api/collections";
import { useCollectionVisit, useUnlockCollection } from "../hooks/use-collection-visit";
import { CollectionBrowser } from "./collection-browser";

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
      <ShareNotes remark={collection.remark} hasPassword={collection.has_password} />
      <dl className="mt-5 grid grid-cols-2 gap-4 sm:grid-cols-4">
        <ShareMeta icon={Files} label={t("collectionView.meta.items")}>
          {t("collectionView.itemCount", { count: collection.items.length })}
        </ShareMeta>
        <ShareMeta icon={HardDrive} label={t("fileView.meta.size")}>
          {hasFolders
            ? t("collectionView.meta.sizeWithFolders", { size: formatBytes(bytes) })
            : formatBytes(bytes)}
        </ShareMeta>
        <ShareLimits remainingViews={collection.remaining_views} expiresAt={collection.expires_at} />
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
  const visit = useCollectionVisit(slug);

  if (visit.isPending) return <PageSpinner />;
  if (visit.isError) {
    return <ShareLoadFailure kind="collection" error={visit.error} onRetry={() => void visit.refetch()} />;
  }
  const data = visit.data;
  if (data.requires_password)
    return (
      <CollectionPasswordPrompt
        slug={data.slug}
        onGone={(error) => {
          if (!unavailableReason(error, "collection")) return false;
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
