import { Copy, Download, FileCode2, Link2, QrCode as QrIcon, WrapText } from "lucide-react";
import { lazy, Suspense, useState } from "react";
import { FormatSwitch } from "../../../components/text-view/format-switch";
import { Button, buttonClasses } from "../../../components/ui/button";
import { toast } from "../../../components/ui/toast";
import { useTranslation } from "../../../i18n";
import { copyText } from "../../../lib/clipboard";
import { downloadText, openTextInNewTab } from "../../../lib/download-text";
import { downloadExtension, type TextFormat } from "../../../lib/markdown/detect";
import { type PasteView, pastesApi } from "../../../lib/pastes/api";
import { pasteLink } from "../../../lib/share-links";

const QrDialog = lazy(() => import("./qr-dialog"));

export function PasteToolbar({
  paste,
  content,
  format,
  onFormatChange,
  wrap,
  onWrapChange,
}: {
  paste: PasteView;
  content: string;
  format: TextFormat;
  onFormatChange: (format: TextFormat) => void;
  wrap: boolean;
  onWrapChange: (wrap: boolean) => void;
}) {
  const { t } = useTranslation();
  const [qrOpen, setQrOpen] = useState(false);
  // An encrypted paste's link is only whole with its key: the one this page was opened with.
  const link = paste.encrypted ? window.location.href : pasteLink(paste.slug);

  async function copy(text: string, what: "content" | "link") {
    const ok = await copyText(text);
    toast(
      ok
        ? what === "content"
          ? t("pasteView.contentCopied")
          : t("pasteView.linkCopied")
        : t("common.copyFailed"),
      ok ? "success" : "error",
    );
  }

  // A protected paste opens raw with the access token from its password; the owner
  // (who skipped the password) gets the text already on the page.
  // An encrypted paste has no raw form (the server holds only ciphertext): no Raw button.
  const rawHref = paste.encrypted
    ? null
    : !paste.has_password
      ? pastesApi.rawUrl(paste.slug)
      : paste.access_token
        ? pastesApi.rawUrl(paste.slug, paste.access_token)
        : null;
  const ext = downloadExtension(format);
  // The raw link is a visitor request of its own: on a view-limited paste it uses
  // up a view, which must be said in words (touch screens have no hover), and
  // with no view left it would only fail, so it is not offered.
  const rawCountsView = rawHref !== null && paste.max_views !== null && paste.max_views > 0;
  const noViewLeft = rawHref !== null && (paste.is_last_view || paste.remaining_views === 0);

  return (
    <div className="flex flex-wrap items-center gap-2">
      <FormatSwitch value={format} onChange={onFormatChange} />
      {format === "plain" ? (
        <Button
          variant="outline"
          size="sm"
          aria-pressed={wrap}
          onClick={() => onWrapChange(!wrap)}
          title={t("pasteView.wrap")}
        >
          <WrapText className="h-4 w-4" aria-hidden />
          {t("pasteView.wrap")}
        </Button>
      ) : null}
      <div className="flex flex-wrap gap-2 sm:ml-auto">
        <Button variant="outline" size="sm" onClick={() => void copy(content, "content")}>
          <Copy className="h-4 w-4" aria-hidden />
          {t("pasteView.copyContent")}
        </Button>
        <Button variant="outline" size="sm" onClick={() => void copy(link, "link")}>
          <Link2 className="h-4 w-4" aria-hidden />
          {t("pasteView.copyLink")}
        </Button>
        {noViewLeft || paste.encrypted ? null : rawHref ? (
          <a
            href={rawHref}
            target="_blank"
            rel="noopener noreferrer"
            className={buttonClasses("outline", "sm")}
            aria-label={rawCountsView ? t("shareNotices.rawCountsViewNamed") : undefined}
            title={rawCountsView ? t("shareNotices.rawCountsView") : undefined}
          >
            <FileCode2 className="h-4 w-4" aria-hidden />
            {t("pasteView.raw")}
          </a>
        ) : (
          <Button variant="outline" size="sm" onClick={() => openTextInNewTab(content)}>
            <FileCode2 className="h-4 w-4" aria-hidden />
            {t("pasteView.raw")}
          </Button>
        )}
        <Button
          variant="outline"
          size="sm"
          onClick={() =>
            downloadText(content, `${paste.slug}.${ext}`, ext === "md" ? "text/markdown" : "text/plain")
          }
        >
          <Download className="h-4 w-4" aria-hidden />
          {t("pasteView.download", { ext })}
        </Button>
        <Button variant="outline" size="sm" onClick={() => setQrOpen(true)}>
          <QrIcon className="h-4 w-4" aria-hidden />
          {t("pasteView.qr")}
        </Button>
      </div>
      {rawCountsView || noViewLeft ? (
        <p
          className="w-full text-xs text-slate-600 sm:text-right dark:text-slate-400"
          data-testid="raw-notice"
        >
          {noViewLeft ? t("shareNotices.noRawOnLastView") : t("shareNotices.rawCountsView")}
        </p>
      ) : null}
      {qrOpen ? (
        <Suspense fallback={null}>
          <QrDialog link={link} onClose={() => setQrOpen(false)} />
        </Suspense>
      ) : null}
    </div>
  );
}
