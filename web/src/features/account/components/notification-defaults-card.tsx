import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { RecipientFields, useRecipients } from "../../../components/notifications/recipient-fields";
import { Alert } from "../../../components/ui/alert";
import { Button } from "../../../components/ui/button";
import { Card, CardHeader } from "../../../components/ui/card";
import { Spinner } from "../../../components/ui/spinner";
import { toast } from "../../../components/ui/toast";
import { useTranslation } from "../../../i18n";
import { notificationsApi } from "../../../lib/notifications";
import { useErrorText } from "../../../lib/use-error-text";

const KEY = ["account-notifications"] as const;

/**
 * My account → Notifications: who is told about this user's shares and file requests that have
 * no rule of their own; until the user sets them, the administrator's defaults (shown) apply.
 */
export function NotificationDefaultsCard() {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const qc = useQueryClient();
  const defaults = useQuery({ queryKey: KEY, queryFn: notificationsApi.accountDefaults });
  const recipients = useRecipients(defaults.data);
  const [error, setError] = useState<string | null>(null);
  const settle = (message: string) => ({
    onSuccess: (data: Awaited<ReturnType<typeof notificationsApi.accountDefaults>>) => {
      qc.setQueryData(KEY, data);
      setError(null);
      toast(message, "success");
    },
    onError: (err: unknown) => setError(errorText(err)),
  });
  const save = useMutation({
    mutationFn: () => notificationsApi.setAccountDefaults(recipients.body()),
    ...settle(t("account.notifications.saved")),
  });
  const reset = useMutation({
    mutationFn: notificationsApi.clearAccountDefaults,
    ...settle(t("account.notifications.reset")),
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <Card aria-labelledby="account-notifications-title">
      <CardHeader
        titleId="account-notifications-title"
        title={t("account.notifications.title")}
        description={t("account.notifications.description")}
      />
      <div className="p-5">
        {defaults.isPending ? (
          <Spinner />
        ) : defaults.isError ? (
          <Alert>{errorText(defaults.error)}</Alert>
        ) : (
          <form className="space-y-3" onSubmit={onSubmit} noValidate>
            <p
              className="text-sm text-slate-600 dark:text-slate-300"
              data-testid="notification-defaults-source"
            >
              {defaults.data.uses_admin_defaults
                ? t("account.notifications.adminApply")
                : t("account.notifications.ownApply")}
            </p>
            <RecipientFields form={recipients} />
            {error ? <Alert>{error}</Alert> : null}
            <div className="flex flex-wrap justify-end gap-2">
              {defaults.data.uses_admin_defaults ? null : (
                <Button variant="outline" disabled={reset.isPending} onClick={() => reset.mutate()}>
                  {t("account.notifications.useAdmin")}
                </Button>
              )}
              <Button type="submit" disabled={save.isPending}>
                {t("common.save")}
              </Button>
            </div>
          </form>
        )}
      </div>
    </Card>
  );
}
