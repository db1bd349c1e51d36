import { LogIn } from "lucide-react";
import { type FormEvent, useState } from "react";
import { Alert } from "../../../components/ui/alert";
import { Button } from "../../../components/ui/button";
import { TextField } from "../../../components/ui/form";
import { useTranslation } from "../../../i18n";
import { isApiError } from "../../../lib/api-error";
import { authStore } from "../../../lib/auth-store";
import { useErrorText } from "../../../lib/use-error-text";

/** The challenge of a 401 `second_factor_required` answer to the password, or null for any other error. */
export function secondFactorChallengeOf(err: unknown): string | null {
  if (!isApiError(err) || err.errorId !== "second_factor_required") return null;
  const details = err.details as { challenge?: unknown } | null | undefined;
  return typeof details?.challenge === "string" ? details.challenge : null;
}

/**
 * After a correct password, when the account has a second factor: the code from the
 * authenticator app, or one of the recovery codes. `onRestart` goes back to the password
 * (the challenge expired or was used).
 */
export function SecondFactorStep({
  challenge,
  username,
  onRestart,
}: {
  challenge: string;
  username: string;
  onRestart: (error: string | null) => void;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const [code, setCode] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!code.trim()) return;
    setBusy(true);
    setError(null);
    try {
      await authStore.loginSecondFactor(challenge, code.trim(), username);
    } catch (err) {
      setBusy(false);
      if (isApiError(err) && err.errorId === "sign_in_challenge_invalid") onRestart(errorText(err));
      else setError(errorText(err));
    }
  }

  return (
    <form onSubmit={submit} className="space-y-4" noValidate>
      <p className="text-sm text-slate-600 dark:text-slate-400">{t("auth.secondFactor.prompt")}</p>
      <TextField
        label={t("auth.secondFactor.code")}
        hint={t("auth.secondFactor.hint")}
        autoComplete="one-time-code"
        spellCheck={false}
        value={code}
        onChange={(e) => setCode(e.target.value)}
        controlClassName="font-mono"
        autoFocus
      />
      {error ? <Alert>{error}</Alert> : null}
      <Button type="submit" className="w-full" disabled={busy || !code.trim()}>
        <LogIn className="h-4 w-4" aria-hidden />
        {busy ? t("auth.signingIn") : t("auth.secondFactor.verify")}
      </Button>
      <button
        type="button"
        className="w-full text-center text-sm font-medium text-indigo-700 underline dark:text-indigo-300"
        onClick={() => onRestart(null)}
      >
        {t("auth.secondFactor.back")}
      </button>
    </form>
  );
}
