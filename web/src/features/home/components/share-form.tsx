import { Send } from "lucide-react";
import type { FormEvent } from "react";
import { PasswordField } from "../../../components/password-input";
import {
  AccessLogField,
  ExpiryField,
  MaxViewsField,
  RemarkField,
  SlugField,
  useShareErrorText,
} from "../../../components/share-options/share-fields";
import { Alert } from "../../../components/ui/alert";
import { Button } from "../../../components/ui/button";
import { CheckboxField } from "../../../components/ui/checkbox";
import { useTranslation } from "../../../i18n";
import type { ExpiryUnit, ShareFormErrors, ShareFormValues } from "../../../lib/share-options/form-model";

export interface ShareFormProps {
  values: ShareFormValues;
  onChange: (values: ShareFormValues) => void;
  errors: ShareFormErrors;
  serverError: string | null;
  busy: boolean;
  canShare: boolean;
  onSubmit: () => void;
  /** End-to-end encryption: the password then wraps the key in the link instead of going to the server. */
  encrypt: boolean;
  onEncryptChange: (encrypt: boolean) => void;
}

/** The share form: remark, link suffix, password, expiry, max views. */
export function ShareForm({
  values,
  onChange,
  errors,
  serverError,
  busy,
  canShare,
  onSubmit,
  encrypt,
  onEncryptChange,
}: ShareFormProps) {
  const { t } = useTranslation();
  const errorText = useShareErrorText();
  const set = <K extends keyof ShareFormValues>(key: K, value: ShareFormValues[K]) =>
    onChange({ ...values, [key]: value });

  function submit(e: FormEvent) {
    e.preventDefault();
    onSubmit();
  }

  return (
    <section
      aria-labelledby="share-form-title"
      className="rounded-2xl border border-slate-200 bg-white shadow-xs dark:border-slate-800 dark:bg-slate-900"
    >
      <div className="border-b border-slate-200 px-5 py-4 dark:border-slate-800">
        <h2 id="share-form-title" className="text-base font-semibold">
          {t("home.form.title")}
        </h2>
        <p className="mt-0.5 text-sm text-slate-500 dark:text-slate-400">{t("home.form.description")}</p>
      </div>
      <form onSubmit={submit} noValidate className="space-y-5 p-5">
        <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
          <RemarkField
            value={values.remark}
            onChange={(v) => set("remark", v)}
            error={errorText("remark", errors.remark)}
          />
          <SlugField
            value={values.slug}
            onChange={(v) => set("slug", v)}
            error={errorText("slug", errors.slug)}
          />
          <PasswordField
            label={t("pastes.form.password")}
            hint={encrypt ? t("e2e.passwordHint") : t("pastes.form.passwordHint")}
            error={errorText("password", errors.password)}
            value={values.password}
            onChange={(v) => set("password", v)}
          />
          <ExpiryField
            unit={values.expiryUnit}
            amount={values.expiryAmount}
            onUnitChange={(u) => set("expiryUnit", u as ExpiryUnit)}
            onAmountChange={(v) => set("expiryAmount", v)}
            error={errorText("expiryAmount", errors.expiryAmount)}
          />
          <MaxViewsField
            value={values.maxViews}
            onChange={(v) => set("maxViews", v)}
            error={errorText("maxViews", errors.maxViews)}
          />
        </div>
        <AccessLogField noLog={Boolean(values.noLog)} onChange={(noLog) => set("noLog", noLog)} />
        <CheckboxField
          label={t("e2e.option")}
          description={t("e2e.optionHint")}
          checked={encrypt}
          onCheckedChange={onEncryptChange}
        />
        {errors.other ? <Alert>{errors.other}</Alert> : null}
        {serverError ? <Alert>{serverError}</Alert> : null}
        <div className="flex flex-wrap items-center justify-end gap-3">
          {!canShare ? (
            <p className="text-sm text-slate-500 dark:text-slate-400">{t("home.form.signInFirst")}</p>
          ) : null}
          <Button type="submit" disabled={busy || !canShare}>
            <Send className="h-4 w-4" aria-hidden />
            {busy ? t("home.form.creating") : t("home.form.submit")}
          </Button>
        </div>
      </form>
    </section>
  );
}
