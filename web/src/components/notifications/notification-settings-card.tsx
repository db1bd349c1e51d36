import type { NotificationEvent, NotificationSettingsBody } from "@clipshare/shared";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Mail, Webhook } from "lucide-react";
import { useEffect, useState } from "react";
import { useTranslation } from "../../i18n";
import { formatDateTime } from "../../lib/format";
import { type NotificationDelivery, notificationsApi } from "../../lib/notifications";
import { useErrorText } from "../../lib/use-error-text";
import { PasswordField } from "../password-input";
import { SettingsFormCard } from "../settings-form-card";
import { Badge } from "../ui/badge";
import { Button } from "../ui/button";
import { Card, CardHeader } from "../ui/card";
import { Input, SelectField, TextField } from "../ui/form";
import { RefreshButton } from "../ui/refresh-button";
import { toast } from "../ui/toast";
import { EventCheckboxes } from "./event-checkboxes";

const SETTINGS_KEY = ["notification-settings"] as const;
const LOG_KEY = ["notification-deliveries"] as const;
const LOG_PAGE = 20;

/** Admin → Settings: the SMTP server, default recipients and events, the signing secret, and the log. */
export function NotificationSettingsCard() {
  return (
    <>
      <SettingsForm />
      <DeliveryLog />
    </>
  );
}

function SettingsForm() {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const qc = useQueryClient();
  const query = useQuery({ queryKey: SETTINGS_KEY, queryFn: notificationsApi.settings });
  const [form, setForm] = useState({
    host: "",
    port: "",
    security: "starttls" as "none" | "starttls" | "tls",
    user: "",
    password: "",
    from: "",
    email: "",
    webhook: "",
  });
  const [events, setEvents] = useState<NotificationEvent[]>([]);
  useEffect(() => {
    const s = query.data;
    if (!s) return;
    setForm({
      host: s.smtp_host ?? "",
      port: s.smtp_port ? String(s.smtp_port) : "",
      security: s.smtp_security,
      user: s.smtp_user ?? "",
      password: "",
      from: s.smtp_from ?? "",
      email: s.default_email ?? "",
      webhook: s.default_webhook_url ?? "",
    });
    setEvents(s.default_events);
  }, [query.data]);
  const save = useMutation({
    mutationFn: (body: NotificationSettingsBody) => notificationsApi.saveSettings(body),
    onSuccess: (data) => qc.setQueryData(SETTINGS_KEY, data),
  });
  const test = useMutation({
    mutationFn: (channel: "email" | "webhook") => notificationsApi.test(channel),
    onSuccess: () => {
      toast(t("notifications.testQueued"), "success");
      void qc.invalidateQueries({ queryKey: LOG_KEY });
    },
    onError: (err) => toast(errorText(err), "error"),
  });
  const set = (changes: Partial<typeof form>) => setForm((f) => ({ ...f, ...changes }));
  return (
    <SettingsFormCard
      id="settings-notifications"
      title={t("notifications.title")}
      description={t("notifications.description")}
      query={query}
      saving={save.isPending}
      onSave={() =>
        save.mutateAsync({
          smtp_host: form.host.trim() || null,
          smtp_port: form.port ? Number(form.port) : null,
          smtp_security: form.security,
          smtp_user: form.user.trim() || null,
          ...(form.password ? { smtp_password: form.password } : {}),
          smtp_from: form.from.trim() || null,
          default_email: form.email.trim() || null,
          default_webhook_url: form.webhook.trim() || null,
          default_events: events,
        })
      }
    >
      <div className="grid gap-3 sm:grid-cols-2">
        <TextField
          label={t("notifications.smtpHost")}
          value={form.host}
          onChange={(e) => set({ host: e.target.value })}
        />
        <TextField
          label={t("notifications.smtpPort")}
          type="number"
          min={1}
          max={65535}
          value={form.port}
          onChange={(e) => set({ port: e.target.value })}
        />
        <SelectField
          label={t("notifications.smtpSecurity")}
          value={form.security}
          onChange={(e) => set({ security: e.target.value as typeof form.security })}
        >
          <option value="starttls">{t("notifications.security.starttls")}</option>
          <option value="tls">{t("notifications.security.tls")}</option>
          <option value="none">{t("notifications.security.none")}</option>
        </SelectField>
        <TextField
          label={t("notifications.smtpFrom")}
          type="email"
          value={form.from}
          onChange={(e) => set({ from: e.target.value })}
        />
        <TextField
          label={t("notifications.smtpUser")}
          autoComplete="off"
          value={form.user}
          onChange={(e) => set({ user: e.target.value })}
        />
        <PasswordField
          label={t("notifications.smtpPassword")}
          hint={query.data?.has_smtp_password ? t("collections.passwordKeepHint") : t("explorer.optional")}
          autoComplete="new-password"
          value={form.password}
          onChange={(password) => set({ password })}
        />
        <TextField
          label={t("notifications.defaultEmail")}
          type="email"
          value={form.email}
          onChange={(e) => set({ email: e.target.value })}
        />
        <TextField
          label={t("notifications.defaultWebhook")}
          hint={t("notifications.webhookHint")}
          type="url"
          value={form.webhook}
          onChange={(e) => set({ webhook: e.target.value })}
        />
      </div>
      <EventCheckboxes value={events} onChange={setEvents} />
      <div className="space-y-1">
        <p className="text-sm font-medium text-slate-700 dark:text-slate-200" id="webhook-secret-label">
          {t("notifications.secret")}
        </p>
        <div className="flex flex-wrap gap-2">
          <Input
            readOnly
            aria-labelledby="webhook-secret-label"
            className="min-w-0 flex-1 font-mono text-xs"
            value={query.data?.webhook_secret ?? ""}
            onFocus={(e) => e.target.select()}
          />
          <Button
            type="button"
            variant="outline"
            disabled={save.isPending}
            onClick={() => {
              if (window.confirm(t("notifications.regenerateConfirm")))
                void save.mutateAsync({ regenerate_secret: true });
            }}
          >
            {t("notifications.regenerate")}
          </Button>
        </div>
        <p className="text-xs text-slate-500 dark:text-slate-400">{t("notifications.secretHint")}</p>
      </div>
      <div className="flex flex-wrap gap-2">
        <Button
          type="button"
          variant="outline"
          disabled={test.isPending}
          onClick={() => test.mutate("email")}
        >
          <Mail className="h-4 w-4" aria-hidden />
          {t("notifications.testEmail")}
        </Button>
        <Button
          type="button"
          variant="outline"
          disabled={test.isPending}
          onClick={() => test.mutate("webhook")}
        >
          <Webhook className="h-4 w-4" aria-hidden />
          {t("notifications.testWebhook")}
        </Button>
      </div>
    </SettingsFormCard>
  );
}

const STATUS_TONE: Record<NotificationDelivery["status"], "success" | "warning" | "danger" | "neutral"> = {
  delivered: "success",
  pending: "warning",
  sending: "neutral",
  failed: "danger",
};

/** The delivery log: newest first, a page at a time. */
function DeliveryLog() {
  const { t, i18n } = useTranslation();
  const [offset, setOffset] = useState(0);
  const log = useQuery({
    queryKey: [...LOG_KEY, offset],
    queryFn: () => notificationsApi.deliveries({ limit: LOG_PAGE, offset }),
    placeholderData: keepPreviousData,
  });
  const rows = log.data?.deliveries ?? [];
  const total = log.data?.pagination.total ?? 0;
  return (
    <Card aria-labelledby="notification-log-title">
      <CardHeader
        titleId="notification-log-title"
        title={t("notifications.log.title")}
        description={t("notifications.log.description")}
        headingLevel={3}
        actions={<RefreshButton busy={log.isFetching} onClick={() => void log.refetch()} />}
      />
      {rows.length === 0 ? (
        <p className="px-5 pb-5 text-sm text-slate-500 dark:text-slate-400">{t("notifications.log.empty")}</p>
      ) : (
        <ul className="divide-y divide-slate-200 dark:divide-slate-800" data-testid="delivery-log">
          {rows.map((d) => (
            <li key={d.id} className="flex flex-wrap items-start justify-between gap-2 px-5 py-3 text-sm">
              <div className="min-w-0">
                <p className="font-medium break-all">
                  {t(`notifications.event.${d.event as NotificationEvent}`, { defaultValue: d.event })} ·{" "}
                  {d.channel === "email" ? t("notifications.email") : t("notifications.webhook")}
                </p>
                <p className="text-xs break-all text-slate-500 dark:text-slate-400">{d.target}</p>
                {d.last_error ? (
                  <p className="text-xs break-words text-red-700 dark:text-red-300">{d.last_error}</p>
                ) : null}
              </div>
              <div className="text-right text-xs text-slate-500 dark:text-slate-400">
                <Badge tone={STATUS_TONE[d.status]}>{t(`notifications.status.${d.status}`)}</Badge>
                <p className="mt-1">
                  {t("notifications.log.attempts", { count: d.attempts })}
                  {d.last_status !== null ? ` · ${d.last_status}` : ""}
                </p>
                <p>{formatDateTime(d.delivered_at ?? d.updated_at, i18n.language)}</p>
              </div>
            </li>
          ))}
        </ul>
      )}
      {total > LOG_PAGE ? (
        <div className="flex justify-between gap-2 border-t border-slate-200 px-5 py-3 dark:border-slate-800">
          <Button
            size="sm"
            variant="outline"
            disabled={offset === 0}
            onClick={() => setOffset(Math.max(0, offset - LOG_PAGE))}
          >
            {t("notifications.log.newer")}
          </Button>
          <Button
            size="sm"
            variant="outline"
            disabled={offset + LOG_PAGE >= total}
            onClick={() => setOffset(offset + LOG_PAGE)}
          >
            {t("notifications.log.older")}
          </Button>
        </div>
      ) : null}
    </Card>
  );
}
