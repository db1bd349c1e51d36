import type { TotpSetup } from "@clipshare/shared";
import { ShieldCheck } from "lucide-react";
import { type FormEvent, useState } from "react";
import { PasswordField } from "../../../components/password-input";
import { QrCode } from "../../../components/qr-code";
import { Alert } from "../../../components/ui/alert";
import { Badge } from "../../../components/ui/badge";
import { Button } from "../../../components/ui/button";
import { Card, CardHeader } from "../../../components/ui/card";
import { TextField } from "../../../components/ui/form";
import { toast } from "../../../components/ui/toast";
import { useTranslation } from "../../../i18n";
import { useErrorText } from "../../../lib/use-error-text";
import {
  useConfirmTotp,
  useDisableTotp,
  useRenewRecoveryCodes,
  useStartTotp,
  useTwoFactor,
} from "../hooks/use-two-factor";

/** The one-time recovery codes, shown once after they were made. */
function RecoveryCodeList({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="space-y-3">
      <Alert tone="info">{t("account.twoFactor.recoveryCodesOnce")}</Alert>
      <ul
        aria-label={t("account.twoFactor.recoveryCodesLabel")}
        className="grid grid-cols-2 gap-2 font-mono text-sm"
        translate="no"
      >
        {codes.map((code) => (
          <li key={code} className="rounded bg-slate-100 px-2 py-1 dark:bg-slate-800">
            {code}
          </li>
        ))}
      </ul>
      <Button type="button" onClick={onDone}>
        {t("account.twoFactor.savedCodes")}
      </Button>
    </div>
  );
}

/** The code field every step asks for: digits from the app, or a recovery code. */
function CodeField({
  value,
  onChange,
  label,
}: {
  value: string;
  onChange: (v: string) => void;
  label: string;
}) {
  return (
    <TextField
      label={label}
      autoComplete="one-time-code"
      inputMode="text"
      spellCheck={false}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      controlClassName="font-mono"
    />
  );
}

/** Scan the QR code (or type the secret), then confirm with the app's first code. */
function Enrolment({ setup, onCodes }: { setup: TotpSetup; onCodes: (codes: string[]) => void }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const confirm = useConfirmTotp();
  const [code, setCode] = useState("");
  const [error, setError] = useState<string | null>(null);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    try {
      const result = await confirm.mutateAsync(code);
      onCodes(result.recovery_codes);
    } catch (err) {
      setError(errorText(err));
    }
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <p className="text-sm">{t("account.twoFactor.scan")}</p>
      <div className="flex flex-col gap-4 sm:flex-row sm:items-start">
        <QrCode value={setup.otpauth_uri} label={t("account.twoFactor.qrLabel")} />
        <div className="min-w-0 text-sm">
          <p className="text-slate-600 dark:text-slate-400">{t("account.twoFactor.secretHint")}</p>
          <code className="mt-1 block font-mono break-all" translate="no" data-testid="totp-secret">
            {setup.secret}
          </code>
        </div>
      </div>
      <CodeField label={t("account.twoFactor.codeFromApp")} value={code} onChange={setCode} />
      {error ? <Alert>{error}</Alert> : null}
      <Button type="submit" disabled={confirm.isPending || !code.trim()}>
        {t("account.twoFactor.confirm")}
      </Button>
    </form>
  );
}

/** Password and a code: what turning TOTP off or renewing the codes takes. */
function ConfirmedChange({
  action,
  submitLabel,
  onCodes,
}: {
  action: "disable" | "renew";
  submitLabel: string;
  onCodes: (codes: string[]) => void;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const disable = useDisableTotp();
  const renew = useRenewRecoveryCodes();
  const [password, setPassword] = useState("");
  const [code, setCode] = useState("");
  const [error, setError] = useState<string | null>(null);
  const busy = disable.isPending || renew.isPending;

  async function submit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    try {
      if (action === "disable") {
        await disable.mutateAsync({ password, code });
        toast(t("account.twoFactor.turnedOff"), "success");
      } else {
        onCodes((await renew.mutateAsync({ password, code })).recovery_codes);
      }
      setPassword("");
      setCode("");
    } catch (err) {
      setError(errorText(err));
    }
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-3">
      <div className="grid gap-4 sm:grid-cols-2">
        <PasswordField
          label={t("account.twoFactor.password")}
          autoComplete="current-password"
          value={password}
          onChange={setPassword}
        />
        <CodeField label={t("account.twoFactor.codeOrRecovery")} value={code} onChange={setCode} />
      </div>
      {error ? <Alert>{error}</Alert> : null}
      <Button type="submit" variant="secondary" disabled={busy || !password || !code.trim()}>
        {submitLabel}
      </Button>
    </form>
  );
}

/** My account → Two-factor sign-in: an authenticator app (TOTP) and its recovery codes. */
export function TwoFactorCard() {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const status = useTwoFactor();
  const start = useStartTotp();
  const [setup, setSetup] = useState<TotpSetup | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [change, setChange] = useState<"disable" | "renew" | null>(null);
  const [error, setError] = useState<string | null>(null);
  const on = status.data?.totp === true;

  async function begin() {
    setError(null);
    try {
      setSetup(await start.mutateAsync());
    } catch (err) {
      setError(errorText(err));
    }
  }

  const showCodes = (made: string[]) => {
    setSetup(null);
    setChange(null);
    setCodes(made);
  };

  return (
    <Card aria-labelledby="account-two-factor-title">
      <CardHeader
        titleId="account-two-factor-title"
        title={t("account.twoFactor.title")}
        description={t("account.twoFactor.description")}
      />
      <div className="space-y-4 p-5">
        {status.data?.enrolment_required ? (
          <Alert tone="info">{t("account.twoFactor.required")}</Alert>
        ) : null}
        {status.isError ? <Alert>{errorText(status.error)}</Alert> : null}
        {status.data ? (
          <p className="flex flex-wrap items-center gap-2 text-sm">
            <ShieldCheck className="h-4 w-4 text-indigo-600 dark:text-indigo-400" aria-hidden />
            <Badge tone={on ? "success" : "neutral"}>
              {on ? t("account.twoFactor.on") : t("account.twoFactor.off")}
            </Badge>
            {on ? (
              <span className="text-slate-600 dark:text-slate-400">
                {t("account.twoFactor.codesLeft", { count: status.data.recovery_codes_left })}
              </span>
            ) : null}
          </p>
        ) : null}
        {codes ? <RecoveryCodeList codes={codes} onDone={() => setCodes(null)} /> : null}
        {!codes && setup ? <Enrolment setup={setup} onCodes={showCodes} /> : null}
        {!codes && !setup && status.data && !on ? (
          <Button type="button" onClick={begin} disabled={start.isPending}>
            {t("account.twoFactor.setUp")}
          </Button>
        ) : null}
        {!codes && on ? (
          <div className="space-y-3">
            <div className="flex flex-wrap gap-2">
              <Button type="button" variant="secondary" onClick={() => setChange("renew")}>
                {t("account.twoFactor.renew")}
              </Button>
              <Button type="button" variant="secondary" onClick={() => setChange("disable")}>
                {t("account.twoFactor.turnOff")}
              </Button>
            </div>
            {change ? (
              <ConfirmedChange
                key={change}
                action={change}
                submitLabel={
                  change === "disable" ? t("account.twoFactor.turnOff") : t("account.twoFactor.renew")
                }
                onCodes={showCodes}
              />
            ) : null}
          </div>
        ) : null}
        {error ? <Alert>{error}</Alert> : null}
      </div>
    </Card>
  );
}
