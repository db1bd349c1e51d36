import { QrCode } from "../../../components/qr-code";
import { Dialog } from "../../../components/ui/dialog";
import { useTranslation } from "../../../i18n";

/** The paste's link as a QR code. Its own chunk (dialog + encoder), loaded when asked for. */
export default function QrDialog({ link, onClose }: { link: string; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={t("pasteView.qrTitle")}
      description={t("pasteView.qrDescription")}
    >
      <div className="flex flex-col items-center gap-3">
        <QrCode value={link} label={t("pastes.qrAlt", { link })} size={224} />
        <p className="max-w-full font-mono text-xs break-all text-slate-500 dark:text-slate-400">{link}</p>
      </div>
    </Dialog>
  );
}
