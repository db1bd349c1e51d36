import * as DialogPrimitive from "@radix-ui/react-dialog";
import { X } from "lucide-react";
import { type FormEvent, type ReactNode, useId, useLayoutEffect, useRef } from "react";
import { useTranslation } from "../../i18n";
import { cn } from "../../lib/cn";
import { Button } from "./button";

export interface DialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
  /** "alertdialog" for confirmations. */
  role?: "dialog" | "alertdialog";
  size?: "md" | "lg";
}

/**
 * The last few focused elements, newest last. A dialog's opener is the newest one outside it
 * that still exists when it closes: an autofocused field inside the dialog, or a menu item
 * that is gone, is passed over.
 */
const recentFocus: HTMLElement[] = [];
if (typeof document !== "undefined") {
  document.addEventListener(
    "focusin",
    (event) => {
      if (!(event.target instanceof HTMLElement)) return;
      recentFocus.push(event.target);
      if (recentFocus.length > 8) recentFocus.shift();
    },
    true,
  );
}

export function Dialog({
  open,
  onOpenChange,
  title,
  description,
  children,
  footer,
  role = "dialog",
  size = "md",
}: DialogProps) {
  const { t } = useTranslation();
  // Closing hands focus back to what had it before the dialog opened (a row, a menu's entry),
  // not only to a Radix trigger, which most of these dialogs do not have.
  const openers = useRef<HTMLElement[]>([]);
  const content = useRef<HTMLDivElement>(null);
  // Taken once the content is in the page (after any autofocused field inside it took focus).
  useLayoutEffect(() => {
    if (open) openers.current = recentFocus.filter((el) => !content.current?.contains(el));
  }, [open]);
  return (
    <DialogPrimitive.Root open={open} onOpenChange={onOpenChange}>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className="fixed inset-0 z-40 bg-slate-950/50 backdrop-blur-[2px]" />
        <DialogPrimitive.Content
          role={role}
          ref={content}
          onCloseAutoFocus={(event) => {
            const opener = openers.current.findLast((el) => el.isConnected);
            if (!opener) return;
            event.preventDefault();
            opener.focus({ preventScroll: true });
          }}
          {...(description ? {} : { "aria-describedby": undefined })}
          className={cn(
            "fixed left-1/2 top-1/2 z-50 flex max-h-[calc(100dvh-2rem)] w-[calc(100vw-2rem)] -translate-x-1/2 -translate-y-1/2 flex-col",
            "rounded-2xl border border-slate-200 bg-white shadow-2xl dark:border-slate-800 dark:bg-slate-900",
            size === "lg" ? "max-w-2xl" : "max-w-md",
          )}
        >
          <div className="flex items-start justify-between gap-4 border-b border-slate-200 px-5 py-4 dark:border-slate-800">
            <div className="min-w-0">
              <DialogPrimitive.Title className="text-base font-semibold text-slate-900 dark:text-slate-50">
                {title}
              </DialogPrimitive.Title>
              {description ? (
                <DialogPrimitive.Description className="mt-1 text-sm text-slate-500 dark:text-slate-400">
                  {description}
                </DialogPrimitive.Description>
              ) : null}
            </div>
            <DialogPrimitive.Close
              className="rounded-md p-1 text-slate-500 hover:bg-slate-100 hover:text-slate-900 dark:hover:bg-slate-800 dark:hover:text-slate-100"
              aria-label={t("common.close")}
              title={t("common.close")}
            >
              <X className="h-4 w-4" aria-hidden />
            </DialogPrimitive.Close>
          </div>
          <div className="min-h-0 flex-1 overflow-y-auto px-5 py-4">{children}</div>
          {footer ? (
            <div className="flex flex-wrap justify-end gap-2 border-t border-slate-200 px-5 py-3 dark:border-slate-800">
              {footer}
            </div>
          ) : null}
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}

/**
 * A dialog around one form: Cancel and a submit button in the footer, the form in
 * the body. While `busy` (the form is being saved) it cannot be closed or sent again.
 */
export function FormDialog({
  open = true,
  onClose,
  busy,
  title,
  description,
  size,
  submitLabel,
  submitDisabled = false,
  onSubmit,
  formClassName,
  children,
}: {
  open?: boolean;
  onClose: () => void;
  busy: boolean;
  title: ReactNode;
  description?: ReactNode;
  size?: DialogProps["size"];
  /** The submit button's text; "Save" when not given. */
  submitLabel?: string;
  submitDisabled?: boolean;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  formClassName?: string;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const formId = useId();
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => !next && !busy && onClose()}
      size={size}
      title={title}
      description={description}
      footer={
        <>
          <Button variant="outline" onClick={onClose} disabled={busy}>
            {t("common.cancel")}
          </Button>
          <Button type="submit" form={formId} disabled={busy || submitDisabled}>
            {busy ? t("common.saving") : (submitLabel ?? t("common.save"))}
          </Button>
        </>
      }
    >
      <form id={formId} onSubmit={onSubmit} noValidate className={formClassName}>
        {children}
      </form>
    </Dialog>
  );
}
