import { ExternalLink, FileText } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "../../i18n";
import { type OfficeProvider, officeViewer } from "../../lib/office-viewer";
import { type OfficeViewerUrls, publicFilesApi } from "../../lib/public-files";
import { useErrorText } from "../../lib/use-error-text";
import { Alert } from "../ui/alert";
import { Button } from "../ui/button";
import { Spinner } from "../ui/spinner";

export type { OfficeProvider };

/**
 * Office documents through an online viewer the visitor chooses (Microsoft
 * or Google). The viewers fetch the file themselves, so nothing is
 * loaded from them until a provider is picked.
 */
export function OfficePreview({
  slug,
  token,
  filename,
}: {
  slug: string;
  token: string | null;
  filename: string;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const [provider, setProvider] = useState<OfficeProvider | null>(null);
  const [urls, setUrls] = useState<OfficeViewerUrls | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function choose(next: OfficeProvider) {
    setProvider(next);
    setError(null);
    if (urls) return;
    setBusy(true);
    try {
      const data = await publicFilesApi.officeViewers(slug, token);
      // A response without `url` is an error of its own.
      if (data?.url) setUrls(data);
      else setError(t("fileView.office.missingUrl"));
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  }

  const viewer = urls && provider ? officeViewer(urls, provider) : null;
  const src = viewer && "src" in viewer ? viewer.src : null;
  const shown = error ?? (viewer && "error" in viewer ? t(viewer.error) : null);

  return (
    <div className="space-y-3">
      <div
        className="flex flex-wrap items-center gap-2"
        role="group"
        aria-label={t("fileView.office.chooser")}
      >
        <FileText className="h-4 w-4 text-slate-500" aria-hidden />
        <span className="text-sm text-slate-600 dark:text-slate-300">{t("fileView.office.choose")}</span>
        {(["microsoft", "google"] as const).map((p) => (
          <Button
            key={p}
            size="sm"
            variant={provider === p ? "primary" : "outline"}
            aria-pressed={provider === p}
            onClick={() => void choose(p)}
          >
            {t(`fileView.office.${p}`)}
          </Button>
        ))}
        {src ? (
          <a
            href={src}
            target="_blank"
            rel="noopener noreferrer"
            className="inline-flex items-center gap-1 text-sm text-indigo-600 hover:underline dark:text-indigo-400"
          >
            {t("fileView.office.openNewTab")}
            <ExternalLink className="h-3.5 w-3.5" aria-hidden />
          </a>
        ) : null}
      </div>
      <p className="text-xs text-slate-500 dark:text-slate-400">{t("fileView.office.note")}</p>
      {busy ? <Spinner /> : null}
      {shown ? <Alert>{shown}</Alert> : null}
      {src ? (
        <iframe
          key={src}
          src={src}
          title={t("fileView.office.frameTitle", { name: filename })}
          className="h-[75vh] w-full rounded-xl border border-slate-200 bg-white dark:border-slate-800"
          referrerPolicy="no-referrer"
          sandbox="allow-scripts allow-same-origin allow-popups allow-forms"
        />
      ) : null}
    </div>
  );
}
