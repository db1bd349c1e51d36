import { Calendar, Copy, HardDrive, Tag } from "lucide-react";
import { useParams } from "react-router";
import { FilePreview } from "../../../components/file-preview/file-preview";
import { OfflineCopyMark } from "../../../components/offline/offline-copy-mark";
import { DownloadButton, ShareLimits, ShareMeta, ShareNotes } from "../../../components/share-details";
import { ShareQrButton } from "../../../components/share-qr-code";
import { ShareLoadFailure, unavailableReason } from "../../../components/share-unavailable";
import { Alert } from "../../../components/ui/alert";
import { Button } from "../../../components/ui/button";
import { PageSpinner } from "../../../components/ui/spinner";
import { toast } from "../../../components/ui/toast";
import { useTranslation } from "../../../i18n";
import { copyText } from "../../../lib/clipboard";
import { formatBytes } from "../../../lib/file-size";
import { formatDateTime } from "../../../lib/format";
import type { PublicFile } from "../../../lib/public-files";
import { fileShareUrl } from "../../../lib/share-links";
import { usePublicFile } from "../hooks/use-public-file";
import { EncryptedFile } from "./encrypted-file";
import { FileHeading } from "./file-heading";
import { FilePasswordPrompt } from "./password-prompt";

/**
 * "application/octet-stream" wraps after the slash, never inside "octet-stream": the subtype is
 * one unit that moves to the next line whole (and wraps inside only when longer than the line).
 */
function MimeType({ value }: { value: string }) {
  const slash = value.indexOf("/");
  return (
    <span className="font-mono text-xs">
      {value.slice(0, slash + 1)}
      <wbr />
      <span className="inline-block max-w-full">{value.slice(slash + 1)}</span>
    </span>
  );
}

function FileDetails({ file }: { file: PublicFile }) {
  const { t, i18n } = useTranslation();
  const link = fileShareUrl(file.slug);
  return (
    <section
      aria-labelledby="file-title"
      className="rounded-2xl border border-slate-200 bg-white p-5 shadow-xs sm:p-6 dark:border-slate-800 dark:bg-slate-900"
    >
      <FileHeading name={file.filename}>
        <ShareNotes remark={file.remark} hasPassword={file.has_password} />
      </FileHeading>

      <dl className="mt-5 grid grid-cols-2 gap-4 sm:grid-cols-3 lg:grid-cols-5">
        <ShareMeta icon={HardDrive} label={t("fileView.meta.size")}>
          {formatBytes(file.size)}
        </ShareMeta>
        <ShareMeta icon={Tag} label={t("fileView.meta.type")}>
          <MimeType value={file.mimetype || "application/octet-stream"} />
        </ShareMeta>
        <ShareMeta icon={Calendar} label={t("fileView.meta.uploaded")}>
          {formatDateTime(file.created_at, i18n.language)}
        </ShareMeta>
        <ShareLimits remainingViews={file.remaining_views} expiresAt={file.expires_at} />
      </dl>

      <div className="mt-5 flex flex-wrap gap-2">
        {file.downloadUrl ? <DownloadButton url={file.downloadUrl} filename={file.filename} /> : null}
        <Button
          variant="outline"
          onClick={async () => {
            const ok = await copyText(link);
            toast(ok ? t("fileShare.linkCopied") : t("common.copyFailed"), ok ? "success" : "error");
          }}
        >
          <Copy className="h-4 w-4" aria-hidden />
          {t("fileShare.copyLink")}
        </Button>
        <ShareQrButton url={link} name={file.filename} />
      </div>
    </section>
  );
}

/** /file/:slug: a shared file for visitors — details, password prompt, preview, download. */
export function FilePage() {
  const { t } = useTranslation();
  const { slug = "" } = useParams();
  const file = usePublicFile(slug);

  if (file.isPending) return <PageSpinner />;
  if (file.isError) {
    return <ShareLoadFailure kind="file" error={file.error} onRetry={() => void file.refetch()} />;
  }

  const data = file.data;
  if (data.requires_password) {
    return (
      <FilePasswordPrompt
        slug={data.slug}
        onGone={(error) => {
          if (!unavailableReason(error, "file")) return false;
          void file.refetch();
          return true;
        }}
      />
    );
  }

  // End-to-end encrypted: only the browser can open name, type and content.
  if (data.encrypted_meta)
    return (
      <div className="mx-auto max-w-5xl space-y-6">
        <EncryptedFile file={{ ...data, encrypted_meta: data.encrypted_meta }} />
      </div>
    );

  return (
    <div className="mx-auto max-w-5xl space-y-6">
      <OfflineCopyMark at={data.offlineCopyAt} />
      <FileDetails file={data} />
      {/* As on the paste page: the view just used was the last one, so say so while the file is here. */}
      {data.remaining_views === 0 && data.downloadUrl ? (
        <Alert tone="info">{t("shareNotices.fileLastView")}</Alert>
      ) : null}
      {data.previewUrl ? (
        <section
          aria-label={t("fileView.preview.title")}
          className="rounded-2xl border border-slate-200 bg-white p-3 shadow-xs sm:p-5 dark:border-slate-800 dark:bg-slate-900"
        >
          <FilePreview
            file={{
              slug: data.slug,
              filename: data.filename,
              mimetype: data.mimetype,
              size: data.size,
              is_office: data.is_office,
              previewUrl: data.previewUrl,
            }}
          />
        </section>
      ) : null}
    </div>
  );
}
