import type { SecondFactorChallenge } from "@clipshare/shared";
import { Fingerprint, LogIn } from "lucide-react";
import { type FormEvent, useState } from "react";
import { Alert } from "../../../components/ui/alert";
import { Button } from "../../../components/ui/button";
import { TextField } from "../../../components/ui/form";
import { useTranslation } from "../../../i18n";
import { isPasskeyCancel } from "../../../lib/accounts/passkeys";
import { isApiError } from "../../../lib/api-error";
import { authStore } from "../../../lib/auth-store";
import { useErrorText } from "../../../lib/use-error-text";

export interface SignInChallenge {
  challenge: string;
  methods: SecondFactorChallenge["methods"];
}

/** The challenge of a 401 `second_factor_required` answer to the password, or null for any other error. */
export function secondFactorChallengeOf(err: unknown): SignInChallenge | null {
  if (!isApiError(err) || err.errorId !== "second_factor_required") return null;
  const details = err.details as { challenge?: unknown; methods?: unknown } | null | undefined;
  if (typeof details?.challenge !== "string") return null;
  // A server from before the list of methods had codes only.
  const methods = Array.isArray(details.methods) ? details.methods : ["totp", "recovery_code"];
  return { challenge: details.challenge, methods };
}

/**
 * After a correct password, when the account has a second factor: the code from the
 * authenticator app, one of the recovery codes, or a passkey. `onRestart` goes back to the
 * password (the challenge expired or was used).
 */
export function SecondFactorStep({
  challenge: { challenge, methods },
  username,
  onRestart,
}: {
  challenge: SignInChallenge;
  username: string;
  onRestart: (error: string | null) => void;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const [code, setCode] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const codes = methods.includes("totp");

  async function attempt(signIn: () => Promise<void>) {
    setBusy(true);
    setError(null);
    try {
      await signIn();
    } catch (err) {
      setBusy(false);
      if (isApiError(err) && err.errorId === "sign_in_challenge_invalid") onRestart(errorText(err));
      else if (isPasskeyCancel(err)) setError(t("auth.passkeyCancelled"));
      else setError(errorText(err));
    }
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    if (!code.trim()) return;
    void attempt(() => authStore.loginSecondFactor(challenge, code.trim(), username));
  }

  const passkey = methods.includes("passkey") ? (
    <Button
      type="button"
      variant={codes ? "secondary" : "primary"}
      className="w-full"
      disabled={busy}
      autoFocus={!codes}
      onClick={() => void attempt(() => authStore.loginSecondFactorPasskey(challenge, username))}
    >
      <Fingerprint className="h-4 w-4" aria-hidden />
      {t("auth.secondFactor.usePasskey")}
    </Button>
  ) : null;

  if (!codes) {
    return (
      <div className="space-y-4">
        <p className="text-sm text-slate-600 dark:text-slate-400">{t("auth.secondFactor.passkeyPrompt")}</p>
        {error ? <Alert>{error}</Alert> : null}
        {passkey}
        <BackButton onClick={() => onRestart(null)} />
      </div>
    );
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
      {passkey}
      <BackButton onClick={() => onRestart(null)} />
    </form>
  );
}

function BackButton({ onClick }: { onClick: () => void }) {
  const { t } = useTranslation();
  return (
    <button
      type="button"
      className="w-full text-center text-sm font-medium text-indigo-700 underline dark:text-indigo-300"
      onClick={onClick}
    >
      {t("auth.secondFactor.back")}
    </button>
  );
}
