import { Calendar, Copy, Download, Eye, HardDrive, Hourglass, LockKeyhole, Tag } from "lucide-react";
import type { ReactNode } from "react";
import { useParams } from "react-router";
import { FilePreview } from "../../../components/file-preview/file-preview";
import { OfflineCopyMark } from "../../../components/offline/offline-copy-mark";
import { ShareQrButton } from "../../../components/share-qr-code";
import { ShareUnavailable, type UnavailableReason } from "../../../components/share-unavailable";
import { Alert } from "../../../components/ui/alert";
import { Badge } from "../../../components/ui/badge";
import { Button, buttonClasses } from "../../../components/ui/button";
import { PageSpinner } from "../../../components/ui/spinner";
import { toast } from "../../../components/ui/toast";
import { useTranslation } from "../../../i18n";
import { isApiError } from "../../../lib/api-error";
import { copyText } from "../../../lib/clipboard";
import { formatBytes } from "../../../lib/file-size";
import { formatDateTime } from "../../../lib/format";
import type { PublicFile } from "../../../lib/public-files";
import { backendUrl, fileShareUrl } from "../../../lib/share-links";
import { useErrorText } from "../../../lib/use-error-text";
import { usePublicFile } from "../hooks/use-public-file";
import { EncryptedFile } from "./encrypted-file";
import { FileHeading } from "./file-heading";
import { FilePasswordPrompt } from "./password-prompt";

/** Which "unavailable" page an error means: 404 missing, 410 expired or used up. */
export function unavailableReason(error: unknown): UnavailableReason | null {
  if (!isApiError(error) || error.kind !== "http") return null;
  if (error.status === 404) return "missing";
  if (error.status === 410) return error.errorId === "file_view_limit" ? "used-up" : "expired";
  return null;
}

function Meta({ icon: Icon, label, children }: { icon: typeof Tag; label: string; children: ReactNode }) {
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
        {file.remark ? (
          <p className="mt-1 text-sm break-words text-slate-600 dark:text-slate-300">{file.remark}</p>
        ) : null}
        {file.has_password ? (
          <Badge tone="warning" className="mt-2 gap-1">
            <LockKeyhole className="h-3 w-3" aria-hidden />
            {t("pastes.passwordProtected")}
          </Badge>
        ) : null}
      </FileHeading>

      <dl className="mt-5 grid grid-cols-2 gap-4 sm:grid-cols-3 lg:grid-cols-5">
        <Meta icon={HardDrive} label={t("fileView.meta.size")}>
          {formatBytes(file.size)}
        </Meta>
        <Meta icon={Tag} label={t("fileView.meta.type")}>
          <MimeType value={file.mimetype || "application/octet-stream"} />
        </Meta>
        <Meta icon={Calendar} label={t("fileView.meta.uploaded")}>
          {formatDateTime(file.created_at, i18n.language)}
        </Meta>
        <Meta icon={Eye} label={t("fileView.meta.viewsLeft")}>
          {file.remaining_views === null ? t("fileView.meta.unlimited") : file.remaining_views}
        </Meta>
        <Meta icon={Hourglass} label={t("fileView.meta.expires")}>
          {file.expires_at ? formatDateTime(file.expires_at, i18n.language) : t("fileView.meta.never")}
        </Meta>
      </dl>

      <div className="mt-5 flex flex-wrap gap-2">
        {file.downloadUrl ? (
          <a
            href={backendUrl(file.downloadUrl)}
            download={file.filename}
            className={buttonClasses("primary")}
          >
            <Download className="h-4 w-4" aria-hidden />
            {t("fileView.download")}
          </a>
        ) : null}
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
  const errorText = useErrorText();
  const file = usePublicFile(slug);

  if (file.isPending) return <PageSpinner />;
  if (file.isError) {
    const reason = unavailableReason(file.error);
    return reason ? (
      <ShareUnavailable reason={reason} />
    ) : (
      <ShareUnavailable reason="failed" message={errorText(file.error)} onRetry={() => void file.refetch()} />
    );
  }

  const data = file.data;
  if (data.requires_password) {
    return (
      <FilePasswordPrompt
        slug={data.slug}
        onGone={(error) => {
          if (!unavailableReason(error)) return false;
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
