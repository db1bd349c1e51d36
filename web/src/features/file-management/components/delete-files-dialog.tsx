import { useEffect, useId, useState } from "react";
import { ConfirmDialog } from "../../../components/list/confirm-dialog";
import { useTranslation } from "../../../i18n";
import type { DeleteMode } from "../api/file-shares";

/** Confirms deleting shares and asks what happens to the stored files (delete mode). */
export function DeleteFilesDialog({
  names,
  busy,
  error,
  onCancel,
  onConfirm,
}: {
  /** Names of the shares to delete; null when closed. */
  names: string[] | null;
  busy: boolean;
  error: string | null;
  onCancel: () => void;
  onConfirm: (mode: DeleteMode) => void;
}) {
  const { t } = useTranslation();
  const groupId = useId();
  const [mode, setMode] = useState<DeleteMode>("both");
  useEffect(() => {
    if (names) setMode("both");
  }, [names]);
  const count = names?.length ?? 0;

  return (
    <ConfirmDialog
      open={names !== null}
      busy={busy}
      error={error}
      onCancel={onCancel}
      onConfirm={() => onConfirm(mode)}
      title={
        count === 1 ? t("fileManagement.delete.titleOne") : t("fileManagement.delete.titleMany", { count })
      }
      description={count === 1 ? names?.[0] : undefined}
    >
      <fieldset className="space-y-2">
        <legend id={groupId} className="mb-2 text-sm font-medium text-slate-700 dark:text-slate-200">
          {t("fileManagement.delete.mode")}
        </legend>
        {(["both", "record_only"] as const).map((value) => (
          <label
            key={value}
            className="flex cursor-pointer items-start gap-2.5 rounded-lg border border-slate-200 p-3 text-sm has-[:checked]:border-indigo-500 dark:border-slate-800"
          >
            <input
              type="radio"
              name={`${groupId}-mode`}
              value={value}
              checked={mode === value}
              onChange={() => setMode(value)}
              className="mt-0.5 accent-indigo-600"
            />
            <span>
              <span className="block font-medium">{t(`fileManagement.delete.modes.${value}`)}</span>
              <span className="block text-xs text-slate-500 dark:text-slate-400">
                {t(`fileManagement.delete.modeHints.${value}`)}
              </span>
            </span>
          </label>
        ))}
      </fieldset>
    </ConfirmDialog>
  );
}
