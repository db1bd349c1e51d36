import type { ReactNode } from "react";
import { useTranslation } from "../../i18n";
import { Alert } from "../ui/alert";
import { Button } from "../ui/button";
import { Dialog } from "../ui/dialog";

/**
 * A question before something that cannot be undone (delete, clear): cancel or
 * confirm, both locked while the work runs; a failure shows in the dialog,
 * which stays open so the user can try again or cancel.
 */
export function ConfirmDialog({
  open,
  title,
  description,
  confirmLabel,
  busy,
  error,
  onCancel,
  onConfirm,
  children,
}: {
  open: boolean;
  title: string;
  description?: string;
  /** Defaults to "Delete". */
  confirmLabel?: string;
  busy: boolean;
  error: string | null;
  onCancel: () => void;
  onConfirm: () => void;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Dialog
      role="alertdialog"
      open={open}
      onOpenChange={(next) => !next && !busy && onCancel()}
      title={title}
      description={description}
      footer={
        <>
          <Button variant="outline" onClick={onCancel} disabled={busy}>
            {t("common.cancel")}
          </Button>
          <Button variant="danger" disabled={busy} onClick={onConfirm}>
            {confirmLabel ?? t("common.delete")}
          </Button>
        </>
      }
    >
      {children}
      {error ? <Alert className={children ? "mt-3" : undefined}>{error}</Alert> : null}
    </Dialog>
  );
}
