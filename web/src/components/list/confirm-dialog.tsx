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
/** Where the question comes from: a `useConfirm` state, or open / error / cancel given one by one. */
type ConfirmSource =
  | {
      state: { target: unknown; error: string | null; close: () => void };
      open?: never;
      error?: never;
      onCancel?: never;
    }
  | { state?: never; open: boolean; error: string | null; onCancel: () => void };

export function ConfirmDialog({
  title,
  description,
  confirmLabel,
  busy,
  onConfirm,
  children,
  ...source
}: ConfirmSource & {
  title: string;
  description?: string;
  /** Defaults to "Delete". */
  confirmLabel?: string;
  busy: boolean;
  onConfirm: () => void;
  children?: ReactNode;
}) {
  const open = source.state ? source.state.target !== null : source.open;
  const error = source.state ? source.state.error : source.error;
  const onCancel = source.state ? source.state.close : source.onCancel;
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
