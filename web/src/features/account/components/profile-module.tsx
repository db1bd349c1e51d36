import { DISPLAY_NAME_MAX, type SessionDto } from "@clipshare/shared";
import { LogOut, MonitorSmartphone, UserRound } from "lucide-react";
import { type FormEvent, useEffect, useState } from "react";
import { PermissionBadges } from "../../../components/accounts/permission-badges";
import type { ListColumn, RowAction } from "../../../components/list/data-list";
import { ListRows } from "../../../components/list/list-frame";
import { Alert } from "../../../components/ui/alert";
import { Badge } from "../../../components/ui/badge";
import { Button } from "../../../components/ui/button";
import { Card, CardHeader } from "../../../components/ui/card";
import { TextField } from "../../../components/ui/form";
import { toast } from "../../../components/ui/toast";
import { UsageMeter } from "../../../components/ui/usage-meter";
import { useTranslation } from "../../../i18n";
import { formatBytes } from "../../../lib/file-size";
import { formatDateTime } from "../../../lib/format";
import { useErrorText } from "../../../lib/use-error-text";
import { useAccount, useEndSession, useSessions, useSetDisplayName } from "../hooks/use-account";
import { useTwoFactor } from "../hooks/use-two-factor";
import { browserOf } from "../session-label";
import { AppPasswordsCard } from "./app-passwords-card";
import { CredentialsCard } from "./credentials-card";
import { NotificationDefaultsCard } from "./notification-defaults-card";
import { PasskeysCard } from "./passkeys-card";
import { TwoFactorCard } from "./two-factor-card";

/** Used bytes against a quota (in total, or on one storage config); no meter without a quota. */
function QuotaUsage({ used, quota, on }: { used: number; quota: number | null; on?: string }) {
  const { t } = useTranslation();
  const text =
    quota === null
      ? t("account.identity.usedNoQuota", { used: formatBytes(used) })
      : t("account.identity.usedOf", { used: formatBytes(used), quota: formatBytes(quota) });
  return (
    <div className="mb-2 max-w-sm">
      <span className="text-sm">
        {on ? (
          <span className="mr-1 font-mono text-xs" translate="no">
            {on.slice(0, 8)}
          </span>
        ) : null}
        {text}
      </span>
      {quota !== null ? (
        <UsageMeter percent={quota > 0 ? Math.min(100, (used / quota) * 100) : 100} label={text} />
      ) : null}
    </div>
  );
}

/** Who I am: name, role and grant; the display name is mine to change. */
function IdentityCard() {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const account = useAccount();
  const save = useSetDisplayName();
  const [name, setName] = useState("");
  const [error, setError] = useState<string | null>(null);
  const user = account.data;
  useEffect(() => setName(user?.display_name ?? ""), [user?.display_name]);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    try {
      await save.mutateAsync(name.trim() || null);
      toast(t("account.identity.saved"), "success");
    } catch (err) {
      setError(errorText(err));
    }
  }

  return (
    <Card aria-labelledby="account-identity-title">
      <CardHeader
        titleId="account-identity-title"
        title={t("account.identity.title")}
        description={t("account.identity.description")}
      />
      <div className="space-y-4 p-5">
        {account.isError ? <Alert>{errorText(account.error)}</Alert> : null}
        {user ? (
          <dl className="grid gap-3 text-sm sm:grid-cols-[10rem_1fr]">
            <dt className="text-slate-500 dark:text-slate-400">{t("account.identity.username")}</dt>
            <dd className="font-medium break-all">{user.username}</dd>
            <dt className="text-slate-500 dark:text-slate-400">{t("account.identity.role")}</dt>
            <dd>
              <Badge tone={user.role === "admin" ? "accent" : undefined}>
                {t(`users.roles.${user.role}`)}
              </Badge>
            </dd>
            <dt className="text-slate-500 dark:text-slate-400">{t("account.identity.usage")}</dt>
            <dd>
              <QuotaUsage used={user.used_bytes} quota={user.quota_bytes} />
              {user.storage_quotas.map((q) => (
                <QuotaUsage
                  key={q.storage_config_id}
                  used={q.used_bytes}
                  quota={q.quota_bytes}
                  on={q.storage_config_id}
                />
              ))}
            </dd>
            <dt className="text-slate-500 dark:text-slate-400">{t("account.identity.grant")}</dt>
            <dd>
              {user.role === "admin" ? (
                t("account.identity.everything")
              ) : (
                <span className="flex flex-col gap-2">
                  <PermissionBadges mask={user.permissions} />
                  <span className="text-xs">
                    {t("account.identity.basePath")}{" "}
                    <span className="font-mono" translate="no">
                      {user.base_path}
                    </span>
                  </span>
                </span>
              )}
            </dd>
          </dl>
        ) : null}
        <form onSubmit={submit} noValidate className="flex flex-col gap-3 sm:flex-row sm:items-end">
          <TextField
            label={t("account.identity.displayName")}
            hint={t("account.identity.displayNameHint")}
            value={name}
            maxLength={DISPLAY_NAME_MAX}
            autoComplete="name"
            onChange={(e) => setName(e.target.value)}
            className="sm:flex-1"
          />
          <Button type="submit" disabled={save.isPending || !user}>
            {save.isPending ? t("common.saving") : t("common.save")}
          </Button>
        </form>
        {error ? <Alert>{error}</Alert> : null}
      </div>
    </Card>
  );
}

/** Where I am signed in; any other session can be signed out from here. */
function SessionsCard() {
  const { t, i18n } = useTranslation();
  const errorText = useErrorText();
  const sessions = useSessions();
  const end = useEndSession();
  const rows = sessions.data?.sessions ?? [];
  const others = rows.filter((s) => !s.current).length;

  const endOne = async (id: string | "others") => {
    try {
      await end.mutateAsync(id);
      toast(t("account.sessions.signedOut"), "success");
    } catch (err) {
      toast(errorText(err), "error");
    }
  };

  const columns: ListColumn<SessionDto>[] = [
    {
      id: "device",
      header: t("account.sessions.columns.device"),
      primary: true,
      cell: (row) => (
        <span className="flex flex-wrap items-center gap-2">
          {browserOf(row.user_agent) ? (
            // Product names, the same in every language.
            <span className="font-medium" translate="no">
              {browserOf(row.user_agent)}
            </span>
          ) : (
            <span className="font-medium">{t("account.sessions.unknownDevice")}</span>
          )}
          {row.current ? <Badge tone="success">{t("account.sessions.current")}</Badge> : null}
        </span>
      ),
    },
    {
      id: "address",
      header: t("account.sessions.columns.address"),
      className: "font-mono text-xs",
      cell: (row) => row.client_ip ?? "",
    },
    {
      id: "signedIn",
      header: t("account.sessions.columns.signedIn"),
      className: "whitespace-nowrap text-slate-600 dark:text-slate-300",
      cell: (row) => formatDateTime(row.created_at, i18n.language),
    },
    {
      id: "lastSeen",
      header: t("account.sessions.columns.lastSeen"),
      className: "whitespace-nowrap text-slate-600 dark:text-slate-300",
      cell: (row) => formatDateTime(row.last_seen_at, i18n.language),
    },
  ];

  const actions = (row: SessionDto): RowAction[] =>
    row.current
      ? []
      : [
          {
            id: "sign-out",
            label: t("account.sessions.signOutNamed", {
              when: formatDateTime(row.created_at, i18n.language),
            }),
            title: t("account.sessions.signOut"),
            icon: LogOut,
            danger: true,
            onClick: () => void endOne(row.id),
          },
        ];

  return (
    <Card aria-labelledby="account-sessions-title">
      <CardHeader
        titleId="account-sessions-title"
        title={t("account.sessions.title")}
        description={t("account.sessions.description")}
        actions={
          <Button
            variant="outline"
            disabled={others === 0 || end.isPending}
            onClick={() => void endOne("others")}
          >
            <LogOut className="h-4 w-4" aria-hidden />
            {t("account.sessions.signOutOthers")}
          </Button>
        }
      />
      <div className="p-5">
        <ListRows
          query={sessions}
          icon={MonitorSmartphone}
          emptyText={t("account.sessions.empty")}
          rows={rows}
          columns={columns}
          actions={actions}
          caption={t("account.sessions.tableCaption")}
        />
      </div>
    </Card>
  );
}

/** Admin module "profile": every signed-in account's own page (not an API key's). */
export function ProfileModule() {
  const { t } = useTranslation();
  // Until a required second factor is set up, the server answers nothing else of the account.
  const enrolling = useTwoFactor().data?.enrolment_required === true;
  return (
    <div className="space-y-6">
      <header className="flex items-center gap-3 px-1">
        <UserRound className="h-6 w-6 text-indigo-600 dark:text-indigo-400" aria-hidden />
        <div>
          <h2 className="text-xl font-semibold tracking-tight">{t("admin.modules.profile")}</h2>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{t("account.description")}</p>
        </div>
      </header>
      <IdentityCard />
      {enrolling ? null : <CredentialsCard />}
      <TwoFactorCard />
      {/* A passkey is a second factor too: it is offered while enrolment is due. */}
      <PasskeysCard />
      {enrolling ? null : <AppPasswordsCard />}
      {enrolling ? null : <NotificationDefaultsCard />}
      {enrolling ? null : <SessionsCard />}
    </div>
  );
}
