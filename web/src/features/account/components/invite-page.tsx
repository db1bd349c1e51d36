import { ADMIN_PASSWORD_MIN, DISPLAY_NAME_MAX, USERNAME_PATTERN } from "@clipshare/shared";
import { useQuery } from "@tanstack/react-query";
import { SearchX, UserPlus } from "lucide-react";
import { type FormEvent, useState } from "react";
import { useNavigate, useParams } from "react-router";
import { PasswordField } from "../../../components/password-input";
import { StatusCard } from "../../../components/status-card";
import { Alert } from "../../../components/ui/alert";
import { Button } from "../../../components/ui/button";
import { TextField } from "../../../components/ui/form";
import { useTranslation } from "../../../i18n";
import { isApiError } from "../../../lib/api-error";
import { authStore } from "../../../lib/auth-store";
import { formatDateTime } from "../../../lib/format";
import { useErrorText } from "../../../lib/use-error-text";
import { accountApi } from "../api/account";

type Problem = "username" | "password" | "confirm";

/** /invite/:token: the page an invitation link opens; signing up signs the new user in. */
export function InvitePage() {
  const { token = "" } = useParams();
  const { t, i18n } = useTranslation();
  const errorText = useErrorText();
  const navigate = useNavigate();
  const invitation = useQuery({
    queryKey: ["invitation", token],
    queryFn: () => accountApi.invitation(token),
    retry: false,
    refetchOnWindowFocus: false,
  });
  const [username, setUsername] = useState("");
  const [displayName, setDisplayName] = useState("");
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const [problems, setProblems] = useState<Set<Problem>>(new Set());
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  if (invitation.isPending) return <p className="py-10 text-center text-slate-500">{t("invite.loading")}</p>;
  if (invitation.isError) {
    const gone = isApiError(invitation.error) && invitation.error.status === 404;
    return (
      <StatusCard
        icon={SearchX}
        title={gone ? t("invite.invalid.title") : t("invite.failed")}
        description={gone ? t("invite.invalid.description") : errorText(invitation.error)}
      />
    );
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    const found = new Set<Problem>();
    if (!USERNAME_PATTERN.test(username.trim())) found.add("username");
    if (password.length < ADMIN_PASSWORD_MIN) found.add("password");
    if (password !== confirm) found.add("confirm");
    setProblems(found);
    if (found.size > 0) return;
    setBusy(true);
    setError(null);
    try {
      const login = await accountApi.acceptInvitation(token, {
        username: username.trim(),
        password,
        ...(displayName.trim() ? { display_name: displayName.trim() } : {}),
      });
      await authStore.startSession(login.token, login.role, login.username);
      navigate("/admin/profile", { replace: true });
    } catch (err) {
      setError(errorText(err));
      setBusy(false);
    }
  }

  const role = invitation.data.role;
  return (
    <div className="mx-auto w-full max-w-md py-4 sm:py-10">
      <div className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8 dark:border-slate-800 dark:bg-slate-900">
        <div className="mb-6 flex flex-col items-center text-center">
          <div className="mb-3 rounded-2xl bg-indigo-50 p-3 dark:bg-indigo-950/60">
            <UserPlus className="h-7 w-7 text-indigo-600 dark:text-indigo-400" aria-hidden />
          </div>
          <h1 className="text-xl font-semibold tracking-tight">{t("invite.title")}</h1>
          <p className="mt-1 text-sm text-slate-500 dark:text-slate-400">
            {t(`invite.role.${role}`)}{" "}
            {t("invite.expires", { when: formatDateTime(invitation.data.expires_at, i18n.language) })}
          </p>
          {invitation.data.note ? (
            <p className="mt-3 rounded-lg bg-slate-50 px-3 py-2 text-sm dark:bg-slate-800">
              {invitation.data.note}
            </p>
          ) : null}
        </div>
        <form onSubmit={submit} noValidate className="space-y-4">
          <TextField
            label={t("invite.username")}
            hint={t("invite.usernameHint")}
            error={problems.has("username") ? t("invite.errors.username") : null}
            autoComplete="username"
            value={username}
            onChange={(e) => setUsername(e.target.value)}
            autoFocus
          />
          <TextField
            label={t("invite.displayName")}
            autoComplete="name"
            maxLength={DISPLAY_NAME_MAX}
            value={displayName}
            onChange={(e) => setDisplayName(e.target.value)}
          />
          <PasswordField
            label={t("invite.password")}
            error={problems.has("password") ? t("invite.errors.password", { min: ADMIN_PASSWORD_MIN }) : null}
            autoComplete="new-password"
            value={password}
            onChange={setPassword}
          />
          <PasswordField
            label={t("invite.confirm")}
            error={problems.has("confirm") ? t("invite.errors.confirm") : null}
            autoComplete="new-password"
            value={confirm}
            onChange={setConfirm}
          />
          {error ? <Alert>{error}</Alert> : null}
          <Button type="submit" className="w-full" disabled={busy}>
            {busy ? t("invite.signingUp") : t("invite.submit")}
          </Button>
        </form>
      </div>
    </div>
  );
}
