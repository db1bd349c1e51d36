import { History } from "lucide-react";
import { Link } from "react-router";
import { CopyLinkButton } from "../../../components/copy-link-button";
import { ShareQrButton } from "../../../components/share-qr-code";
import { Alert } from "../../../components/ui/alert";
import { Card, CardHeader } from "../../../components/ui/card";
import { Spinner } from "../../../components/ui/spinner";
import { useTranslation } from "../../../i18n";
import { formatBytes } from "../../../lib/file-size";
import { formatDateTime } from "../../../lib/format";
import { fileShareUrl } from "../../../lib/share-links";
import { useErrorText } from "../../../lib/use-error-text";
import { useRecentUploads } from "../hooks/use-upload-data";

/** The 3 most recent uploads with link, copy and QR code. */
export function RecentUploads() {
  const { t, i18n } = useTranslation();
  const errorText = useErrorText();
  const recent = useRecentUploads(true);
  const files = recent.data ?? [];

  return (
    <Card aria-labelledby="recent-uploads-title">
      <CardHeader titleId="recent-uploads-title" title={t("upload.recent.title")} />
      <div className="p-5">
        {recent.isPending ? (
          <Spinner />
        ) : recent.isError ? (
          <Alert>{errorText(recent.error)}</Alert>
        ) : files.length === 0 ? (
          <p className="flex items-center gap-2 text-sm text-slate-500 dark:text-slate-400">
            <History className="h-4 w-4" aria-hidden />
            {t("upload.recent.empty")}
          </p>
        ) : (
          <ul
            className="divide-y divide-slate-100 dark:divide-slate-800"
            aria-label={t("upload.recent.title")}
          >
            {files.map((file) => {
              const link = fileShareUrl(file.slug);
              return (
                <li key={file.id} className="flex items-center gap-3 py-2.5 first:pt-0 last:pb-0">
                  <div className="min-w-0 flex-1">
                    <Link
                      to={`/file/${encodeURIComponent(file.slug)}`}
                      className="block truncate text-sm font-medium text-indigo-600 hover:underline dark:text-indigo-400"
                    >
                      {file.filename}
                    </Link>
                    <p className="truncate text-xs text-slate-500 dark:text-slate-400">
                      {formatBytes(file.size)} · {formatDateTime(file.created_at, i18n.language)} ·{" "}
                      <span className="font-mono">/file/{file.slug}</span>
                    </p>
                  </div>
                  <CopyLinkButton link={link} label={t("upload.copyLinkOf", { name: file.filename })} />
                  <ShareQrButton url={link} name={file.filename} variant="ghost" iconOnly />
                </li>
              );
            })}
          </ul>
        )}
      </div>
    </Card>
  );
}
