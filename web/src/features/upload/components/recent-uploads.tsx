import { History } from "lucide-react";
import { RecentLinkItem } from "../../../components/recent-link-item";
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
            className="divide-y divide-slate-100 dark:divide-slate-800 [&>li:first-child]:pt-0 [&>li:last-child]:pb-0"
            aria-label={t("upload.recent.title")}
          >
            {files.map((file) => {
              const link = fileShareUrl(file.slug);
              return (
                <RecentLinkItem
                  key={file.id}
                  to={`/file/${encodeURIComponent(file.slug)}`}
                  title={file.filename}
                  meta={
                    <>
                      {formatBytes(file.size)} · {formatDateTime(file.created_at, i18n.language)} ·{" "}
                      <span className="font-mono">/file/{file.slug}</span>
                    </>
                  }
                  link={link}
                  copyLabel={t("upload.copyLinkOf", { name: file.filename })}
                  name={file.filename}
                />
              );
            })}
          </ul>
        )}
      </div>
    </Card>
  );
}
