import { plainSizeOf } from "@clipshare/shared";
import { Download, Eye, ShieldCheck } from "lucide-react";
import { useEffect, useState } from "react";
import { E2EKeyGate } from "../../../components/e2e-key-gate";
import { Alert } from "../../../components/ui/alert";
import { Badge } from "../../../components/ui/badge";
import { Button } from "../../../components/ui/button";
import { useTranslation } from "../../../i18n";
import {
  decryptToBlob,
  downloadDecrypted,
  mediaSource,
  type OpenedFile,
  openFileShare,
} from "../../../lib/e2e/file-crypto";
import { formatBytes } from "../../../lib/file-size";
import { previewKind, TEXT_PREVIEW_MAX_BYTES } from "../../../lib/preview-kind";
import type { PublicFile } from "../../../lib/public-files";
import { backendUrl } from "../../../lib/share-links";
import { FileHeading } from "./file-heading";

/**
 * Images and PDFs up to this size are decrypted into memory for a preview, and
 * so are video and audio where no service worker can play them by byte range;
 * larger ones only download.
 */
const MEDIA_PREVIEW_MAX_BYTES = 200 * 1024 * 1024;

/**
 * An end-to-end encrypted file share: its name and type are opened with the
 * key from the link (after the password where the key is wrapped); downloads
 * and previews are decrypted in the browser. The server's own previews are off.
 */
export function EncryptedFile({ file }: { file: PublicFile & { encrypted_meta: string } }) {
  const { t } = useTranslation();
  return (
    <E2EKeyGate
      open={(link, password) => openFileShare(file.encrypted_meta, link, password)}
      passwordDescription={t("e2e.filePasswordDescription")}
      failureText={(failure) => t(failure === "missingKey" ? "e2e.fileMissingKey" : "e2e.fileDamaged")}
    >
      {(opened) => <OpenedFileView file={file} opened={opened} />}
    </E2EKeyGate>
  );
}

function OpenedFileView({ file, opened }: { file: PublicFile; opened: OpenedFile }) {
  const { t } = useTranslation();
  const size = plainSizeOf(file.size) ?? file.size;
  const { name, type } = opened.meta;
  const url = file.downloadUrl ? backendUrl(file.downloadUrl) : null;
  const [progress, setProgress] = useState<{ loaded: number; state: string } | null>(null);
  const [downloadError, setDownloadError] = useState(false);
  /** "stream": the service worker decrypts to disk; "memory": no worker, decrypted into a Blob first. */
  const [mode, setMode] = useState<"stream" | "memory" | null>(null);

  async function download() {
    if (!url) return;
    setDownloadError(false);
    setProgress({ loaded: 0, state: "running" });
    try {
      setMode(
        await downloadDecrypted({ url, raw: opened.raw, name, type, size }, (p) => {
          setProgress(p);
          if (p.state === "failed") setDownloadError(true);
        }),
      );
    } catch {
      setDownloadError(true);
      setProgress(null);
    }
  }

  const percent = progress && size > 0 ? Math.min(100, Math.floor((progress.loaded / size) * 100)) : 0;
  return (
    <div className="space-y-6">
      <section
        aria-labelledby="file-title"
        className="rounded-2xl border border-slate-200 bg-white p-5 shadow-xs sm:p-6 dark:border-slate-800 dark:bg-slate-900"
      >
        <FileHeading name={name}>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">
            {formatBytes(size)} · <span className="font-mono text-xs">{type}</span>
          </p>
          <Badge tone="success" className="mt-2 gap-1">
            <ShieldCheck className="h-3 w-3" aria-hidden />
            {t("e2e.badge")}
          </Badge>
        </FileHeading>
        <p className="mt-4 text-sm text-slate-600 dark:text-slate-400" data-testid="e2e-notice">
          {t("e2e.fileNotice")}
        </p>
        <div className="mt-5 flex flex-wrap items-center gap-3">
          {url ? (
            <Button onClick={() => void download()} disabled={progress?.state === "running"}>
              <Download className="h-4 w-4" aria-hidden />
              {t("fileView.download")}
            </Button>
          ) : null}
          {progress && progress.state !== "failed" ? (
            <span
              className="text-sm text-slate-600 tabular-nums dark:text-slate-400"
              data-testid="e2e-progress"
              data-mode={mode ?? undefined}
              aria-live="polite"
            >
              {progress.state === "done" ? t("e2e.downloaded") : t("e2e.downloading", { percent })}
            </span>
          ) : null}
        </div>
        {downloadError ? <Alert className="mt-3">{t("e2e.downloadFailed")}</Alert> : null}
      </section>
      {url ? <EncryptedPreview url={url} opened={opened} size={size} /> : null}
    </div>
  );
}

/**
 * A preview decrypted on request: video and audio of any size played through
 * the service worker (it seeks by byte range), else decrypted into memory like
 * images and PDFs up to 200 MB; the first 1 MB of text.
 */
function EncryptedPreview({ url, opened, size }: { url: string; opened: OpenedFile; size: number }) {
  const { t } = useTranslation();
  const kind = previewKind(opened.meta.type, opened.meta.name);
  const [shown, setShown] = useState<{ href: string; text?: string; release: () => void } | null>(null);
  const [failed, setFailed] = useState(false);
  const playable = kind === "video" || kind === "audio";
  const media = playable || kind === "image" || kind === "pdf";
  const textual = kind === "text" || kind === "markdown";
  const streamable = playable && Boolean(navigator.serviceWorker?.controller);
  useEffect(() => () => shown?.release(), [shown]);
  if (!(media && (size <= MEDIA_PREVIEW_MAX_BYTES || streamable)) && !textual) return null;

  async function show() {
    try {
      const { name, type } = opened.meta;
      const streamed = playable ? await mediaSource({ url, raw: opened.raw, name, type, size }) : null;
      if (streamed) return setShown(streamed);
      const blob = await decryptToBlob(url, opened.raw, type);
      const text = textual ? await blob.slice(0, TEXT_PREVIEW_MAX_BYTES).text() : undefined;
      const href = URL.createObjectURL(blob);
      setShown({ href, text, release: () => URL.revokeObjectURL(href) });
    } catch {
      setFailed(true);
    }
  }

  return (
    <section
      aria-label={t("fileView.preview.title")}
      className="rounded-2xl border border-slate-200 bg-white p-3 shadow-xs sm:p-5 dark:border-slate-800 dark:bg-slate-900"
    >
      {failed ? <Alert>{t("e2e.fileDamaged")}</Alert> : null}
      {!shown ? (
        <Button variant="outline" onClick={() => void show()}>
          <Eye className="h-4 w-4" aria-hidden />
          {t("e2e.showPreview")}
        </Button>
      ) : shown.text !== undefined ? (
        <pre className="max-h-[70vh] overflow-auto text-sm whitespace-pre-wrap">{shown.text}</pre>
      ) : kind === "image" ? (
        <img src={shown.href} alt={opened.meta.name} className="mx-auto max-h-[70vh]" />
      ) : kind === "pdf" ? (
        <iframe src={shown.href} title={opened.meta.name} className="h-[70vh] w-full" />
      ) : kind === "audio" ? (
        // biome-ignore lint/a11y/useMediaCaption: a shared recording has no caption track
        <audio src={shown.href} controls className="w-full" />
      ) : (
        // biome-ignore lint/a11y/useMediaCaption: a shared video has no caption track
        <video src={shown.href} controls className="mx-auto max-h-[70vh]" />
      )}
    </section>
  );
}
