import { type FormEvent, useId, useState } from "react";
import { ContentSkeleton } from "../../../components/content-skeleton";
import { Alert } from "../../../components/ui/alert";
import { Button } from "../../../components/ui/button";
import { Dialog } from "../../../components/ui/dialog";
import { Field, Select } from "../../../components/ui/form";
import { useTranslation } from "../../../i18n";
import { isApiError } from "../../../lib/api-error";
import { formatDateTime } from "../../../lib/format";
import { useErrorText } from "../../../lib/use-error-text";
import type { PasteDetail, PasteRow, UpdatePasteBody } from "../../pastes";
import {
  CodeEditor,
  type EditFormValues,
  ExpiryField,
  editFormFrom,
  formatOf,
  hasErrors,
  loadSchemaCheck,
  MaxViewsField,
  type PasswordAction,
  PasswordInput,
  RemarkField,
  type ShareFormErrors,
  SlugField,
  updateBody,
  useShareErrorText,
  validateEditForm,
} from "../../pastes";
import { usePasteDetail } from "../hooks/use-pastes";

/** Edit a paste with the same rules as the Home form; only changed fields are sent. */
export function PasteEditDialog({
  row,
  onClose,
  onSave,
}: {
  row: PasteRow | null;
  onClose: () => void;
  onSave: (id: string, body: UpdatePasteBody) => Promise<void>;
}) {
  const { t } = useTranslation();
  const formId = useId();
  const [busy, setBusy] = useState(false);
  return (
    <Dialog
      open={row !== null}
      onOpenChange={(open) => !open && !busy && onClose()}
      size="lg"
      title={row ? t("textManagement.editTitle", { slug: row.slug }) : ""}
      footer={
        <>
          <Button variant="outline" onClick={onClose} disabled={busy}>
            {t("common.cancel")}
          </Button>
          <Button type="submit" form={formId} disabled={busy}>
            {busy ? t("common.saving") : t("common.save")}
          </Button>
        </>
      }
    >
      {row ? <EditBody id={row.id} formId={formId} onBusy={setBusy} onSave={onSave} /> : null}
    </Dialog>
  );
}

function EditBody({
  id,
  formId,
  onBusy,
  onSave,
}: {
  id: string;
  formId: string;
  onBusy: (busy: boolean) => void;
  onSave: (id: string, body: UpdatePasteBody) => Promise<void>;
}) {
  const errorText = useErrorText();
  const detail = usePasteDetail(id);
  if (detail.isPending) return <ContentSkeleton />;
  if (detail.isError) return <Alert>{errorText(detail.error)}</Alert>;
  return <EditForm detail={detail.data} formId={formId} onBusy={onBusy} onSave={onSave} />;
}

function EditForm({
  detail,
  formId,
  onBusy,
  onSave,
}: {
  detail: PasteDetail;
  formId: string;
  onBusy: (busy: boolean) => void;
  onSave: (id: string, body: UpdatePasteBody) => Promise<void>;
}) {
  const { t, i18n } = useTranslation();
  const errorText = useErrorText();
  const fieldError = useShareErrorText();
  const [values, setValues] = useState<EditFormValues>(() => editFormFrom(detail));
  const [format] = useState(() => formatOf(detail.content));
  const [errors, setErrors] = useState<ShareFormErrors>({});
  const [serverError, setServerError] = useState<string | null>(null);

  const set = <K extends keyof EditFormValues>(key: K, value: EditFormValues[K]) =>
    setValues((v) => ({ ...v, [key]: value }));

  async function submit(e: FormEvent) {
    e.preventDefault();
    const found = validateEditForm(values);
    setErrors(found);
    setServerError(null);
    if (hasErrors(found)) return;
    const body = updateBody(detail, values);
    onBusy(true);
    try {
      const { updateBodyProblem } = await loadSchemaCheck();
      const other = updateBodyProblem(body);
      if (other) {
        setErrors({ other });
        return;
      }
      await onSave(detail.id, body);
    } catch (err) {
      if (isApiError(err) && err.errorId === "slug_taken") setErrors({ slug: "taken" });
      else setServerError(errorText(err));
    } finally {
      onBusy(false);
    }
  }

  const currentExpiry = detail.expires_at
    ? t("textManagement.currentExpiry", { value: formatDateTime(detail.expires_at, i18n.language) })
    : t("textManagement.currentExpiry", { value: t("pastes.neverExpires") });
  const passwordOptions: PasswordAction[] = detail.has_password ? ["keep", "set", "clear"] : ["keep", "set"];

  return (
    <form id={formId} onSubmit={submit} noValidate className="space-y-4">
      {detail.encrypted ? (
        // The server holds ciphertext only: the content stays as it is, the rest can change.
        <Alert tone="info">
          <span data-testid="e2e-edit-refused">{t("e2e.editRefused")}</span>
        </Alert>
      ) : (
        <div className="space-y-1.5">
          <CodeEditor
            className="h-64"
            value={values.content}
            onChange={(v) => set("content", v)}
            format={format}
            label={t("textManagement.form.content")}
          />
          {errors.content ? (
            <p className="text-xs font-medium text-red-600 dark:text-red-400">
              {t(`pastes.form.errors.content.${errors.content as "required" | "tooLarge"}`)}
            </p>
          ) : null}
        </div>
      )}
      <div className="grid gap-4 sm:grid-cols-2">
        <RemarkField
          value={values.remark}
          onChange={(v) => set("remark", v)}
          error={fieldError("remark", errors.remark)}
        />
        <SlugField
          value={values.slug}
          onChange={(v) => set("slug", v)}
          error={fieldError("slug", errors.slug)}
          hint={t("textManagement.form.slugHint")}
        />
        {detail.encrypted ? null : (
          <Field label={t("pastes.form.password")}>
            {({ id }) => (
              <Select
                id={id}
                value={values.passwordAction}
                onChange={(e) => set("passwordAction", e.target.value as PasswordAction)}
              >
                {passwordOptions.map((action) => (
                  <option key={action} value={action}>
                    {t(
                      action === "keep" && !detail.has_password
                        ? "textManagement.form.passwordNone"
                        : `textManagement.form.password.${action}`,
                    )}
                  </option>
                ))}
              </Select>
            )}
          </Field>
        )}
        {values.passwordAction === "set" ? (
          <Field label={t("textManagement.form.newPassword")} error={fieldError("password", errors.password)}>
            {({ id, describedBy, invalid }) => (
              <PasswordInput
                id={id}
                describedBy={describedBy}
                invalid={invalid}
                value={values.password}
                onChange={(v) => set("password", v)}
              />
            )}
          </Field>
        ) : null}
        <ExpiryField
          unit={values.expiryUnit}
          amount={values.expiryAmount}
          onUnitChange={(u) => set("expiryUnit", u)}
          onAmountChange={(v) => set("expiryAmount", v)}
          error={fieldError("expiryAmount", errors.expiryAmount)}
          allowKeep
          currentText={currentExpiry}
        />
        <MaxViewsField
          value={values.maxViews}
          onChange={(v) => set("maxViews", v)}
          error={fieldError("maxViews", errors.maxViews)}
          hint={t("textManagement.form.maxViewsHint", { views: detail.views })}
        />
      </div>
      <Alert tone="info">{t("textManagement.form.resetNotice")}</Alert>
      {errors.other ? <Alert>{errors.other}</Alert> : null}
      {serverError ? <Alert>{serverError}</Alert> : null}
    </form>
  );
}
