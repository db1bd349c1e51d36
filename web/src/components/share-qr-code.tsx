import { QrCode } from "lucide-react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Alert } from "./ui/alert";
import { Button, type ButtonSize, type ButtonVariant } from "./ui/button";
import { Dialog } from "./ui/dialog";
import { Spinner } from "./ui/spinner";

/** PNG data URL of a QR code; the encoder is its own chunk, fetched on first use. */
async function qrDataUrl(text: string): Promise<string> {
  const { toDataURL } = await import("qrcode");
  return toDataURL(text, { errorCorrectionLevel: "M", margin: 2, width: 264 });
}

/** A QR code image for a link (dark modules on white, readable in both themes). */
export function ShareQrImage({ url, label }: { url: string; label: string }) {
  const { t } = useTranslation();
  const [state, setState] = useState<{ url: string; src: string | null; failed: boolean }>({
    url,
    src: null,
    failed: false,
  });

  useEffect(() => {
    let active = true;
    qrDataUrl(url).then(
      (src) => active && setState({ url, src, failed: false }),
      () => active && setState({ url, src: null, failed: true }),
    );
    return () => {
      active = false;
    };
  }, [url]);

  if (state.failed) return <Alert>{t("fileShare.qrFailed")}</Alert>;
  if (state.url !== url || !state.src) return <Spinner />;
  return (
    <img
      src={state.src}
      alt={label}
      width={264}
      height={264}
      className="h-56 w-56 rounded-lg border border-slate-200 bg-white p-1 dark:border-slate-700"
    />
  );
}

/** A button that shows the QR code of a share link in a dialog. */
export function ShareQrButton({
  url,
  name,
  variant = "outline",
  size = "md",
  iconOnly = false,
}: {
  url: string;
  /** What the link points to, for the dialog title and labels. */
  name: string;
  variant?: ButtonVariant;
  size?: ButtonSize;
  iconOnly?: boolean;
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const label = t("fileShare.qrFor", { name });
  return (
    <>
      <Button
        variant={variant}
        size={iconOnly ? "icon" : size}
        onClick={() => setOpen(true)}
        aria-label={iconOnly ? label : undefined}
        title={iconOnly ? t("fileShare.qrCode") : undefined}
      >
        <QrCode className="h-4 w-4" aria-hidden />
        {iconOnly ? null : t("fileShare.qrCode")}
      </Button>
      <Dialog
        open={open}
        onOpenChange={setOpen}
        title={t("fileShare.qrCode")}
        description={name}
        footer={
          <Button variant="outline" onClick={() => setOpen(false)}>
            {t("common.close")}
          </Button>
        }
      >
        <div className="flex flex-col items-center gap-3">
          {open ? <ShareQrImage url={url} label={label} /> : null}
          <p className="max-w-full text-center font-mono text-xs break-all text-slate-600 dark:text-slate-300">
            {url}
          </p>
        </div>
      </Dialog>
    </>
  );
}
