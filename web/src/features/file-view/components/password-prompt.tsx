import { LockKeyhole } from "lucide-react";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { Alert } from "../../../components/ui/alert";
import { Button } from "../../../components/ui/button";
import { Field } from "../../../components/ui/form";
import { formatBytes } from "../../../lib/file-size";
import { useErrorText } from "../../../lib/use-error-text";
import { PasswordInput } from "../../pastes/components/password-input";
import type { PublicFile } from "../api/public-files";
import { useUnlockFile } from "../hooks/use-public-file";

/** A protected share: name and size only, until the password is right (spec §5: it must be entered). */
export function PasswordPrompt({ file, onGone }: { file: PublicFile; onGone: (error: unknown) => boolean }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const unlock = useUnlockFile(file.slug);
  const [password, setPassword] = useState("");
  const [missing, setMissing] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!password) {
      setMissing(true);
      return;
    }
    setError(null);
    try {
      await unlock.mutateAsync(password);
    } catch (err) {
      // 410 while typing (expired or used up): the page switches to that state.
      if (!onGone(err)) setError(errorText(err));
    }
  }

  return (
    <section
      aria-labelledby="file-password-title"
      className="mx-auto w-full max-w-md rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8 dark:border-slate-800 dark:bg-slate-900"
    >
      <div className="mb-5 flex flex-col items-center text-center">
        <div className="mb-3 rounded-2xl bg-indigo-50 p-3 dark:bg-indigo-950/60">
          <LockKeyhole className="h-7 w-7 text-indigo-600 dark:text-indigo-400" aria-hidden />
        </div>
        <h1 id="file-password-title" className="text-xl font-semibold tracking-tight">
          {t("fileView.password.title")}
        </h1>
        <p className="mt-1 text-sm break-all text-slate-600 dark:text-slate-400">
          {file.filename} · {formatBytes(file.size)}
        </p>
      </div>
      <form onSubmit={submit} noValidate className="space-y-4">
        <Field
          label={t("fileView.password.label")}
          error={missing && !password ? t("fileView.password.required") : null}
        >
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
        <Button type="submit" className="w-full" disabled={unlock.isPending}>
          {unlock.isPending ? t("fileView.password.checking") : t("fileView.password.submit")}
        </Button>
      </form>
    </section>
  );
}
