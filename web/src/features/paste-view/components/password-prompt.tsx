import { LockKeyhole, Unlock } from "lucide-react";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { Alert } from "../../../components/ui/alert";
import { Button } from "../../../components/ui/button";
import { Field } from "../../../components/ui/form";
import { PasswordInput } from "../../pastes/components/password-input";

/** Asks for a protected paste's password (spec §5: it must be entered to open the share). */
export function PasswordPrompt({
  onSubmit,
  busy,
  error,
}: {
  onSubmit: (password: string) => void;
  busy: boolean;
  error: string | null;
}) {
  const { t } = useTranslation();
  const [password, setPassword] = useState("");
  const [missing, setMissing] = useState(false);

  function submit(e: FormEvent) {
    e.preventDefault();
    if (!password) {
      setMissing(true);
      return;
    }
    setMissing(false);
    onSubmit(password);
  }

  return (
    <section
      aria-labelledby="password-prompt-title"
      className="mx-auto w-full max-w-md rounded-2xl border border-slate-200 bg-white p-6 shadow-xs sm:p-8 dark:border-slate-800 dark:bg-slate-900"
    >
      <div className="mb-5 flex flex-col items-center text-center">
        <div className="mb-3 rounded-2xl bg-amber-50 p-3 dark:bg-amber-950/50">
          <LockKeyhole className="h-7 w-7 text-amber-600 dark:text-amber-400" aria-hidden />
        </div>
        <h1 id="password-prompt-title" className="text-xl font-semibold tracking-tight">
          {t("pasteView.password.title")}
        </h1>
        <p className="mt-1 text-sm text-slate-500 dark:text-slate-400">
          {t("pasteView.password.description")}
        </p>
      </div>
      <form onSubmit={submit} noValidate className="space-y-4">
        <Field label={t("pastes.form.password")} error={missing ? t("pasteView.password.required") : null}>
          {({ id, describedBy, invalid }) => (
            <PasswordInput
              id={id}
              describedBy={describedBy}
              invalid={invalid}
              value={password}
              onChange={setPassword}
              autoComplete="off"
              autoFocus
            />
          )}
        </Field>
        {error ? <Alert>{error}</Alert> : null}
        <Button type="submit" className="w-full" disabled={busy}>
          <Unlock className="h-4 w-4" aria-hidden />
          {busy ? t("pasteView.password.checking") : t("pasteView.password.submit")}
        </Button>
      </form>
    </section>
  );
}
