import { QrCode as QrIcon } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "../i18n";
import { QrCode } from "./qr-code";
import { Button, type ButtonSize, type ButtonVariant } from "./ui/button";
import { Dialog } from "./ui/dialog";

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
        <QrIcon className="h-4 w-4" aria-hidden />
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
          {open ? <QrCode value={url} label={label} size={224} /> : null}
          <p className="max-w-full text-center font-mono text-xs break-all text-slate-600 dark:text-slate-300">
            {url}
          </p>
        </div>
      </Dialog>
    </>
  );
}
