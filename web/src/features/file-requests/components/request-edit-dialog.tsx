import type { FileRequest } from "@clipshare/shared";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useEffect, useState } from "react";
import { PasswordField } from "../../../components/password-input";
import { Alert } from "../../../components/ui/alert";
import { Button } from "../../../components/ui/button";
import { CheckboxField } from "../../../components/ui/checkbox";
import { Dialog } from "../../../components/ui/dialog";
import { SelectField, TextField } from "../../../components/ui/form";
import { toast } from "../../../components/ui/toast";
import { useTranslation } from "../../../i18n";
import { useErrorText } from "../../../lib/use-error-text";
import { requestsApi } from "../api/request-target";
import { editValuesOf, LIST_KEY, type RequestEditValues, requestUpdateBody } from "../request-form-model";

const EXPIRY_HOURS = [1, 24, 168, 720, 0] as const;

/** Edit a request's title, message, limits, types, expiry, password and what uploaders see. */
export function RequestEditDialog({
  request,
  onClose,
}: {
  request: FileRequest | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const qc = useQueryClient();
  const [values, setValues] = useState<RequestEditValues | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    setValues(request ? editValuesOf(request) : null);
    setError(null);
  }, [request]);
  const save = useMutation({
    mutationFn: (body: ReturnType<typeof requestUpdateBody>) => requestsApi.update(request!.id, body),
    onSuccess: () => {
      toast(t("fileRequests.updated"), "success");
      void qc.invalidateQueries({ queryKey: LIST_KEY });
      onClose();
    },
    onError: (err) => setError(errorText(err)),
  });
  const set = (changes: Partial<RequestEditValues>) => setValues((v) => (v ? { ...v, ...changes } : v));
  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if (!request || !values) return;
    if (!values.title.trim()) return setError(t("fileRequests.titleRequired"));
    const body = requestUpdateBody(request, values);
    if (Object.keys(body).length === 0) return onClose();
    save.mutate(body);
  };
  return (
    <Dialog
      open={request !== null && values !== null}
      onOpenChange={(open) => !open && onClose()}
      title={t("fileRequests.editTitle")}
      description={request?.title}
      footer={
        <>
          <Button variant="outline" onClick={onClose}>
            {t("common.cancel")}
          </Button>
          <Button disabled={save.isPending} onClick={() => submit()}>
            {t("common.save")}
          </Button>
        </>
      }
    >
      {values ? (
        <form className="grid gap-3 sm:grid-cols-2" onSubmit={submit}>
          <TextField
            label={t("fileRequests.title")}
            value={values.title}
            maxLength={200}
            onChange={(e) => set({ title: e.target.value })}
          />
          <TextField
            label={t("fileRequests.message")}
            value={values.message}
            maxLength={4000}
            onChange={(e) => set({ message: e.target.value })}
          />
          <TextField
            label={t("fileRequests.maxFiles")}
            type="number"
            min={1}
            value={values.maxFiles}
            onChange={(e) => set({ maxFiles: e.target.value })}
          />
          <TextField
            label={t("fileRequests.maxFileMb")}
            type="number"
            min={1}
            value={values.maxFileMb}
            onChange={(e) => set({ maxFileMb: e.target.value })}
          />
          <TextField
            label={t("fileRequests.maxTotalMb")}
            type="number"
            min={1}
            value={values.maxTotalMb}
            onChange={(e) => set({ maxTotalMb: e.target.value })}
          />
          <TextField
            label={t("fileRequests.types")}
            hint={t("fileRequests.typesHint")}
            value={values.types}
            onChange={(e) => set({ types: e.target.value })}
          />
          <SelectField
            label={t("fileRequests.expiry")}
            value={values.expiresIn}
            onChange={(e) => set({ expiresIn: e.target.value })}
          >
            <option value="keep">{t("collections.keepExpiry")}</option>
            {EXPIRY_HOURS.map((hours) => (
              <option key={hours} value={String(hours)}>
                {t(
                  `fileShare.expiry.${hours === 1 ? "1h" : hours === 24 ? "1d" : hours === 168 ? "7d" : hours === 720 ? "30d" : "never"}`,
                )}
              </option>
            ))}
          </SelectField>
          <PasswordField
            label={t("collections.newPassword")}
            hint={request?.has_password ? t("collections.passwordKeepHint") : t("explorer.optional")}
            autoComplete="new-password"
            value={values.password}
            onChange={(password) => set({ password })}
          />
          {request?.has_password ? (
            <CheckboxField
              label={t("collections.clearPassword")}
              checked={values.clearPassword}
              onCheckedChange={(clearPassword) => set({ clearPassword })}
            />
          ) : null}
          <CheckboxField
            label={t("fileRequests.showReceived")}
            checked={values.showReceived}
            onCheckedChange={(showReceived) => set({ showReceived })}
          />
          {error ? <Alert className="sm:col-span-2">{error}</Alert> : null}
        </form>
      ) : null}
    </Dialog>
  );
}
