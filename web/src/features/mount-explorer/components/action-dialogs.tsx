import { ChevronRight, Folder, Home } from "lucide-react";
import { useState } from "react";
import { Alert } from "../../../components/ui/alert";
import { Button } from "../../../components/ui/button";
import { CheckboxField } from "../../../components/ui/checkbox";
import { Dialog, FormDialog } from "../../../components/ui/dialog";
import { Field, Input } from "../../../components/ui/form";
import { useTranslation } from "../../../i18n";
import { useErrorText } from "../../../lib/use-error-text";
import { useFormState } from "../../../lib/use-form-state";
import type { FsEntry } from "../api/fs";
import { useDirectory } from "../hooks/use-fs";
import { breadcrumbs, normalizePath, validName } from "../model/paths";

/** New folder and rename: one name field. */
export function NameDialog({
  title,
  initial,
  submitLabel,
  onSubmit,
  onClose,
}: {
  title: string;
  initial: string;
  submitLabel: string;
  onSubmit: (name: string) => Promise<void>;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const { values, set, errors, serverError, busy, submit } = useFormState<
    { name: string },
    { name?: string }
  >({
    initial: { name: initial },
    validate: ({ name }) => (validName(name) ? {} : { name: t("explorer.invalidName") }),
    save: async ({ name }) => {
      await onSubmit(name.trim());
      onClose();
    },
    failureText: errorText,
    clearErrorOnEdit: true,
  });
  return (
    <FormDialog onClose={onClose} busy={busy} title={title} submitLabel={submitLabel} onSubmit={submit}>
      <Field label={t("explorer.name")} error={errors.name ?? serverError}>
        {({ id, describedBy, invalid }) => (
          <Input
            id={id}
            aria-describedby={describedBy}
            invalid={invalid}
            value={values.name}
            autoFocus
            onFocus={(e) => {
              const dot = e.target.value.lastIndexOf(".");
              e.target.setSelectionRange(0, dot > 0 ? dot : e.target.value.length);
            }}
            onChange={(e) => set("name", e.target.value)}
          />
        )}
      </Field>
    </FormDialog>
  );
}

export function DeleteDialog({
  entries,
  onConfirm,
  onClose,
}: {
  entries: FsEntry[];
  onConfirm: () => Promise<void>;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <Dialog
      open
      role="alertdialog"
      onOpenChange={(open) => !open && onClose()}
      title={t("explorer.deleteTitle", { count: entries.length })}
      description={t("explorer.deleteWarning")}
      footer={
        <>
          <Button variant="outline" onClick={onClose}>
            {t("common.cancel")}
          </Button>
          <Button
            variant="danger"
            disabled={busy}
            onClick={async () => {
              setBusy(true);
              try {
                await onConfirm();
                onClose();
              } catch (err) {
                setError(errorText(err));
                setBusy(false);
              }
            }}
          >
            {t("common.delete")}
          </Button>
        </>
      }
    >
      <ul className="max-h-48 space-y-1 overflow-auto font-mono text-xs text-slate-700 dark:text-slate-300">
        {entries.slice(0, 50).map((e) => (
          <li key={e.path} className="truncate">
            {e.path}
          </li>
        ))}
        {entries.length > 50 ? <li>{t("explorer.andMore", { count: entries.length - 50 })}</li> : null}
      </ul>
      {error ? <Alert className="mt-3">{error}</Alert> : null}
    </Dialog>
  );
}

/** Copy/move target: browse folders and pick one. */
export function FolderPickerDialog({
  mode,
  start,
  count,
  onPick,
  onClose,
}: {
  mode: "copy" | "move";
  start: string;
  count: number;
  onPick: (dir: string, skipExisting: boolean) => Promise<void>;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const [dir, setDir] = useState(normalizePath(start));
  const [skipExisting, setSkipExisting] = useState(true);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const listing = useDirectory(dir);
  const folders = (listing.data?.pages.flatMap((p) => p.items) ?? []).filter((e) => e.isDirectory);
  return (
    <Dialog
      open
      size="lg"
      onOpenChange={(open) => !open && onClose()}
      title={t(mode === "copy" ? "explorer.copyTitle" : "explorer.moveTitle", { count })}
      description={t("explorer.pickFolder")}
      footer={
        <>
          <Button variant="outline" onClick={onClose}>
            {t("common.cancel")}
          </Button>
          <Button
            disabled={busy || dir === "/"}
            onClick={async () => {
              setBusy(true);
              setError(null);
              try {
                await onPick(dir, skipExisting);
                onClose();
              } catch (err) {
                setError(errorText(err));
                setBusy(false);
              }
            }}
          >
            {t(mode === "copy" ? "explorer.copyHere" : "explorer.moveHere")}
          </Button>
        </>
      }
    >
      <nav aria-label={t("explorer.breadcrumbs")} className="mb-2 flex flex-wrap items-center gap-1 text-sm">
        {breadcrumbs(dir).map((c, i) => (
          <span key={c.path} className="flex items-center gap-1">
            {i > 0 ? <ChevronRight className="h-3 w-3 text-slate-400" aria-hidden /> : null}
            <button
              type="button"
              className="rounded px-1 hover:bg-slate-100 dark:hover:bg-slate-800"
              onClick={() => setDir(c.path)}
              title={c.name ? undefined : t("explorer.root")}
            >
              {c.name || <Home className="h-4 w-4" aria-label={t("explorer.root")} />}
            </button>
          </span>
        ))}
      </nav>
      <p className="mb-2 font-mono text-xs text-slate-500 dark:text-slate-400" data-testid="picker-path">
        {dir}
      </p>
      <ul
        className="max-h-64 overflow-auto rounded-lg border border-slate-200 dark:border-slate-800"
        aria-label={t("explorer.folders")}
      >
        {folders.length === 0 ? (
          <li className="p-3 text-sm text-slate-500 dark:text-slate-400">{t("explorer.noFolders")}</li>
        ) : null}
        {folders.map((f) => (
          <li key={f.path}>
            <button
              type="button"
              onClick={() => setDir(normalizePath(f.path))}
              className="flex w-full items-center gap-2 px-3 py-2 text-left text-sm hover:bg-slate-100 dark:hover:bg-slate-800"
            >
              <Folder className="h-4 w-4 text-amber-500" aria-hidden />
              {f.name}
            </button>
          </li>
        ))}
      </ul>
      {mode === "copy" ? (
        <CheckboxField
          className="mt-3"
          label={t("explorer.skipExisting")}
          checked={skipExisting}
          onCheckedChange={setSkipExisting}
        />
      ) : null}
      {error ? <Alert className="mt-3">{error}</Alert> : null}
    </Dialog>
  );
}
