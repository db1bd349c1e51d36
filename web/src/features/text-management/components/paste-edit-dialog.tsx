import { useMemo } from "react";
import { CodeEditor } from "../../../components/code-editor/code-editor";
import { ContentSkeleton } from "../../../components/content-skeleton";
import { PasswordField } from "../../../components/password-input";
import {
  ExpiryField,
  MaxViewsField,
  RemarkField,
  SlugField,
  useShareErrorText,
} from "../../../components/share-options/share-fields";
import { Alert } from "../../../components/ui/alert";
import { FormDialog } from "../../../components/ui/dialog";
import { Field, Select } from "../../../components/ui/form";
import { useTranslation } from "../../../i18n";
import { isApiError } from "../../../lib/api-error";
import { formatDateTime } from "../../../lib/format";
import { formatOf } from "../../../lib/markdown/detect";
import type { PasteDetail, PasteRow, UpdatePasteBody } from "../../../lib/pastes/api";
import {
  type EditFormValues,
  editFormFrom,
  type PasswordAction,
  type ShareFormErrors,
  updateBody,
  validateEditForm,
} from "../../../lib/share-options/form-model";
import { useErrorText } from "../../../lib/use-error-text";
import { type FormState, useFormState } from "../../../lib/use-form-state";
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
  const errorText = useErrorText();
  const detail = usePasteDetail(row?.id ?? null);
  // The form starts from the paste as loaded for this row, never from another row's.
  const loaded = row && detail.data?.id === row.id ? detail.data : null;
  const form = useFormState<EditFormValues | null, ShareFormErrors>({
    initial: () => (loaded ? editFormFrom(loaded) : null),
    resetKey: loaded?.id,
    validate: (values) => (values ? validateEditForm(values) : {}),
    save: async (values) => {
      if (!values || !loaded) return;
      const body = updateBody(loaded, values);
      const { updateBodyProblem } = await import("../../../lib/pastes/schema-check");
      const other = updateBodyProblem(body);
      if (other) return { other };
      try {
        await onSave(loaded.id, body);
      } catch (err) {
        if (isApiError(err) && err.errorId === "slug_taken") return { slug: "taken" };
        throw err;
      }
    },
    failureText: errorText,
    // A "taken" link suffix is stale once the suffix is edited.
    clearErrorOnEdit: true,
  });
  return (
    <FormDialog
      open={row !== null}
      onClose={onClose}
      busy={form.busy}
      size="lg"
      title={row ? t("textManagement.editTitle", { slug: row.slug }) : ""}
      submitDisabled={!loaded}
      onSubmit={form.submit}
      formClassName="space-y-4"
    >
      {!row ? null : loaded && form.values ? (
        <EditFields detail={loaded} form={{ ...form, values: form.values }} />
      ) : detail.isError ? (
        <Alert>{errorText(detail.error)}</Alert>
      ) : (
        <ContentSkeleton />
      )}
    </FormDialog>
  );
}

function EditFields({
  detail,
  form: { values, set, errors, serverError },
}: {
  detail: PasteDetail;
  form: Pick<FormState<EditFormValues | null, ShareFormErrors>, "set" | "errors" | "serverError"> & {
    values: EditFormValues;
  };
}) {
  const { t, i18n } = useTranslation();
  const fieldError = useShareErrorText();
  const format = useMemo(() => formatOf(detail.content), [detail.content]);

  const currentExpiry = detail.expires_at
    ? t("textManagement.currentExpiry", { value: formatDateTime(detail.expires_at, i18n.language) })
    : t("textManagement.currentExpiry", { value: t("pastes.neverExpires") });
  const passwordOptions: PasswordAction[] = detail.has_password ? ["keep", "set", "clear"] : ["keep", "set"];

  return (
    <>
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
          <PasswordField
            label={t("textManagement.form.newPassword")}
            error={fieldError("password", errors.password)}
            value={values.password}
            onChange={(v) => set("password", v)}
          />
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
          hint={t("textManagement.form.maxViewsHint", { count: detail.views })}
        />
      </div>
      <Alert tone="info">{t("textManagement.form.resetNotice")}</Alert>
      {errors.other ? <Alert>{errors.other}</Alert> : null}
      {serverError ? <Alert>{serverError}</Alert> : null}
    </>
  );
}
