import { LockKeyhole, Unlock } from "lucide-react";
import { type FormEvent, type ReactNode, useId, useState } from "react";
import { PasswordField } from "./password-input";
import { Alert } from "./ui/alert";
import { Button } from "./ui/button";

/**
 * The page a visitor sees for a password-protected share: the password must be
 * entered before anything of the share opens. An empty password is refused
 * here, without asking the server.
 */
export function PasswordPrompt({
  title,
  description,
  texts,
  busy,
  error,
  onSubmit,
}: {
  title: string;
  /** Under the title: what is protected (a paste's notice, a file's name and size). */
  description: ReactNode;
  texts: { label: string; required: string; submit: string; checking: string };
  busy: boolean;
  error: string | null;
  onSubmit: (password: string) => void;
}) {
  const titleId = useId();
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
      aria-labelledby={titleId}
      className="mx-auto w-full max-w-md rounded-2xl border border-slate-200 bg-white p-6 shadow-xs sm:p-8 dark:border-slate-800 dark:bg-slate-900"
    >
      <div className="mb-5 flex flex-col items-center text-center">
        <div className="mb-3 rounded-2xl bg-amber-50 p-3 dark:bg-amber-950/50">
          <LockKeyhole className="h-7 w-7 text-amber-600 dark:text-amber-400" aria-hidden />
        </div>
        <h1 id={titleId} className="text-xl font-semibold tracking-tight">
          {title}
        </h1>
        <p className="mt-1 text-sm break-all text-slate-500 dark:text-slate-400">{description}</p>
      </div>
      <form onSubmit={submit} noValidate className="space-y-4">
        <PasswordField
          label={texts.label}
          error={missing && !password ? texts.required : null}
          value={password}
          onChange={setPassword}
          autoComplete="off"
          autoFocus
        />
        {error ? <Alert>{error}</Alert> : null}
        <Button type="submit" className="w-full" disabled={busy}>
          <Unlock className="h-4 w-4" aria-hidden />
          {busy ? texts.checking : texts.submit}
        </Button>
      </form>
    </section>
  );
}
