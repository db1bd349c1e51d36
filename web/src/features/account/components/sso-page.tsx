import { SSO_CALLBACK_ERRORS } from "@clipshare/shared";
import { ShieldAlert } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import { StatusCard } from "../../../components/status-card";
import { useTranslation } from "../../../i18n";
import { ssoApi } from "../../../lib/accounts/sso-api";
import { authStore } from "../../../lib/auth-store";
import { useErrorText } from "../../../lib/use-error-text";

/** The refusals the server names when sending the person here (no provider set up, or the callback's); anything else reads as "failed". */
const KNOWN_ERRORS = ["sso_not_configured", ...SSO_CALLBACK_ERRORS] as const;

/**
 * /sso: where a single sign-on ends. With `#code=` it trades the one-time code for a session
 * and opens the panel signed in; with `?error=` it says why signing in failed.
 */
export function SsoPage() {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [failure, setFailure] = useState<string | null>(null);
  const started = useRef(false);
  const errorId = params.get("error");

  useEffect(() => {
    if (errorId || started.current) return;
    started.current = true;
    const code = new URLSearchParams(window.location.hash.slice(1)).get("code");
    // The code is used once; it should not stay in the address bar or the history.
    window.history.replaceState(null, "", window.location.pathname);
    if (!code) {
      setFailure(t("sso.errors.sso_state_invalid"));
      return;
    }
    ssoApi
      .exchange(code)
      .then((login) => authStore.startSession(login.token, login.role, login.username))
      .then(() => navigate("/admin", { replace: true }))
      .catch((err: unknown) => setFailure(errorText(err)));
  }, [errorId, errorText, navigate, t]);

  const known = KNOWN_ERRORS.find((id) => id === errorId);
  const message = errorId ? t(`sso.errors.${known ?? "sso_failed"}`) : failure;
  if (!message) return <p className="py-10 text-center text-slate-500">{t("sso.signingIn")}</p>;
  return (
    <StatusCard
      icon={ShieldAlert}
      tone="warning"
      title={t("sso.failedTitle")}
      description={message}
      actions={
        <Link to="/admin" className="font-medium text-indigo-700 underline dark:text-indigo-300">
          {t("sso.backToSignIn")}
        </Link>
      }
    />
  );
}
