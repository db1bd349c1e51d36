import { useQuery } from "@tanstack/react-query";
import { Fingerprint, KeyRound, LogIn, ShieldCheck } from "lucide-react";
import { type FormEvent, useState } from "react";
import { PasswordField } from "../../../components/password-input";
import { Alert } from "../../../components/ui/alert";
import { Button, buttonClasses } from "../../../components/ui/button";
import { Field, Input } from "../../../components/ui/form";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "../../../components/ui/tabs";
import { useTranslation } from "../../../i18n";
import { isPasskeyCancel, passkeysSupported } from "../../../lib/accounts/passkeys";
import { ssoApi } from "../../../lib/accounts/sso-api";
import { apiBase } from "../../../lib/api";
import { authStore } from "../../../lib/auth-store";
import { setStoredBackendUrl } from "../../../lib/runtime-config";
import { useErrorText } from "../../../lib/use-error-text";
import { SecondFactorStep, type SignInChallenge, secondFactorChallengeOf } from "./second-factor-step";

/** "Sign in with <provider>" when single sign-on is set up: a full navigation to the server's start. */
function SsoSignIn() {
  const { t } = useTranslation();
  const status = useQuery({
    queryKey: ["sso-status"],
    queryFn: ({ signal }) => ssoApi.status(signal),
    retry: false,
    staleTime: 60_000,
  });
  if (!status.data?.enabled) return null;
  return (
    <div className="mb-6 space-y-4">
      <a href={ssoApi.startUrl()} className={buttonClasses("primary", "md", "w-full")}>
        <LogIn className="h-4 w-4" aria-hidden />
        {t("auth.ssoButton", { provider: status.data.provider_name })}
      </a>
      <p className="flex items-center gap-3 text-xs text-slate-500 dark:text-slate-400" aria-hidden>
        <span className="h-px flex-1 bg-slate-200 dark:bg-slate-700" />
        {t("auth.ssoOr")}
        <span className="h-px flex-1 bg-slate-200 dark:bg-slate-700" />
      </p>
    </div>
  );
}

function AdminLoginForm() {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [missing, setMissing] = useState(false);
  const [busy, setBusy] = useState(false);
  const [challenge, setChallenge] = useState<SignInChallenge | null>(null);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!username.trim() || !password) {
      setMissing(true);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await authStore.loginAdmin(username.trim(), password);
    } catch (err) {
      const next = secondFactorChallengeOf(err);
      setChallenge(next);
      setError(next ? null : errorText(err));
      setBusy(false);
    }
  }

  if (challenge) {
    return (
      <SecondFactorStep
        challenge={challenge}
        username={username.trim()}
        onRestart={(reason) => {
          setChallenge(null);
          setPassword("");
          setError(reason);
        }}
      />
    );
  }

  return (
    <form onSubmit={submit} className="space-y-4" noValidate>
      <Field
        label={t("auth.username")}
        error={missing && !username.trim() ? t("auth.usernameRequired") : null}
      >
        {({ id, describedBy, invalid }) => (
          <Input
            id={id}
            aria-describedby={describedBy}
            invalid={invalid}
            autoComplete="username"
            value={username}
            onChange={(e) => setUsername(e.target.value)}
            autoFocus
          />
        )}
      </Field>
      <PasswordField
        label={t("auth.password")}
        error={missing && !password ? t("auth.passwordRequired") : null}
        value={password}
        onChange={setPassword}
        autoComplete="current-password"
      />
      {error ? <Alert>{error}</Alert> : null}
      <Button type="submit" className="w-full" disabled={busy}>
        <LogIn className="h-4 w-4" aria-hidden />
        {busy ? t("auth.signingIn") : t("auth.signIn")}
      </Button>
      <PasskeySignIn />
    </form>
  );
}

/** Passwordless: the browser offers this site's passkeys, and the one chosen names the account. */
function PasskeySignIn() {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (!passkeysSupported()) return null;

  async function signIn() {
    setBusy(true);
    setError(null);
    try {
      await authStore.loginPasskey();
    } catch (err) {
      setError(isPasskeyCancel(err) ? t("auth.passkeyCancelled") : errorText(err));
      setBusy(false);
    }
  }

  return (
    <>
      <Button
        type="button"
        variant="secondary"
        className="w-full"
        disabled={busy}
        onClick={() => void signIn()}
      >
        <Fingerprint className="h-4 w-4" aria-hidden />
        {t("auth.passkeyButton")}
      </Button>
      {error ? <Alert>{error}</Alert> : null}
    </>
  );
}

function ApiKeyLoginForm() {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const [key, setKey] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [missing, setMissing] = useState(false);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!key.trim()) {
      setMissing(true);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await authStore.loginApiKey(key);
    } catch (err) {
      setError(errorText(err));
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} className="space-y-4" noValidate>
      <PasswordField
        label={t("auth.apiKey")}
        hint={t("auth.apiKeyHint")}
        error={missing && !key.trim() ? t("auth.apiKeyRequired") : null}
        value={key}
        onChange={setKey}
        autoComplete="off"
        autoFocus
      />
      {error ? <Alert>{error}</Alert> : null}
      <Button type="submit" className="w-full" disabled={busy}>
        <KeyRound className="h-4 w-4" aria-hidden />
        {busy ? t("auth.signingIn") : t("auth.signIn")}
      </Button>
    </form>
  );
}

/** Sign-in for the admin panel: administrator by username and password, or an API key. */
export function SignInPanel() {
  const { t } = useTranslation();
  return (
    <div className="mx-auto w-full max-w-md py-4 sm:py-10">
      <div className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8 dark:border-slate-800 dark:bg-slate-900">
        <div className="mb-6 flex flex-col items-center text-center">
          <div className="mb-3 rounded-2xl bg-indigo-50 p-3 dark:bg-indigo-950/60">
            <ShieldCheck className="h-7 w-7 text-indigo-600 dark:text-indigo-400" aria-hidden />
          </div>
          <h1 className="text-xl font-semibold tracking-tight">{t("auth.title")}</h1>
          <p className="mt-1 text-sm text-slate-500 dark:text-slate-400">{t("auth.subtitle")}</p>
        </div>
        <SsoSignIn />
        <Tabs defaultValue="admin">
          <TabsList aria-label={t("auth.method")}>
            <TabsTrigger value="admin">{t("auth.adminTab")}</TabsTrigger>
            <TabsTrigger value="apikey">{t("auth.apiKeyTab")}</TabsTrigger>
          </TabsList>
          <TabsContent value="admin">
            <AdminLoginForm />
          </TabsContent>
          <TabsContent value="apikey">
            <ApiKeyLoginForm />
          </TabsContent>
        </Tabs>
        {apiBase.source === "stored" ? (
          <Alert tone="info" className="mt-6">
            <p>{t("envSwitcher.activeNotice", { url: apiBase.url })}</p>
            <button
              type="button"
              className="mt-1 font-medium underline"
              onClick={() => {
                setStoredBackendUrl(null);
                window.location.reload();
              }}
            >
              {t("envSwitcher.reset")}
            </button>
          </Alert>
        ) : null}
      </div>
    </div>
  );
}
