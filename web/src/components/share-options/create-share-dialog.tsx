import { Copy } from "lucide-react";
import type { ReactNode } from "react";
import { useTranslation } from "../../i18n";
import { copyText } from "../../lib/clipboard";
import { QrCode } from "../qr-code";
import { Button } from "../ui/button";
import { Dialog } from "../ui/dialog";
import { Input } from "../ui/form";
import { toast } from "../ui/toast";

/**
 * A dialog that creates a share from the form it is given, then shows the new link in its place:
 * the QR code, the link (selected on focus) and Copy. Until then: Cancel and the create button.
 */
export function CreateShareDialog({
  title,
  description,
  createLabel,
  linkLabel,
  url,
  busy,
  onCreate,
  onClose,
  children,
}: {
  title: string;
  description?: string;
  createLabel: string;
  /** Names the link field once the share exists. */
  linkLabel: string;
  /** The new share's link; null while it does not exist yet. */
  url: string | null;
  busy: boolean;
  onCreate: () => void;
  onClose: () => void;
  /** The form: the share's options, and an alert for a failure. */
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={title}
      description={description}
      footer={
        url ? (
          <Button variant="outline" onClick={onClose}>
            {t("common.close")}
          </Button>
        ) : (
          <>
            <Button variant="outline" onClick={onClose}>
              {t("common.cancel")}
            </Button>
            <Button disabled={busy} onClick={onCreate}>
              {createLabel}
            </Button>
          </>
        )
      }
    >
      {url ? (
        <div className="flex flex-col items-center gap-3">
          <QrCode value={url} label={t("pastes.qrAlt", { link: url })} />
          <Input
            readOnly
            value={url}
            aria-label={linkLabel}
            data-testid="created-share-link"
            onFocus={(e) => e.target.select()}
          />
          <Button
            size="sm"
            variant="outline"
            onClick={async () => {
              const ok = await copyText(url);
              toast(ok ? t("fileShare.linkCopied") : t("common.copyFailed"), ok ? "success" : "error");
            }}
          >
            <Copy className="h-4 w-4" aria-hidden />
            {t("common.copy")}
          </Button>
        </div>
      ) : (
        <div className="space-y-3">{children}</div>
      )}
    </Dialog>
  );
}
