import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "../../i18n";
import { type NotificationSubject, notificationsApi } from "../../lib/notifications";
import { useErrorText } from "../../lib/use-error-text";
import { Alert } from "../ui/alert";
import { Button } from "../ui/button";
import { Dialog } from "../ui/dialog";
import { Spinner } from "../ui/spinner";
import { toast } from "../ui/toast";
import { RecipientFields, useRecipients } from "./recipient-fields";

/**
 * Who is told about one share or request: its own e-mail address and webhook and the events,
 * or (reset) the defaults of the notification settings.
 */
export function NotificationRuleDialog({
  subject,
  onClose,
}: {
  subject: { kind: NotificationSubject; id: string; name: string };
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const qc = useQueryClient();
  const key = ["notification-rule", subject.kind, subject.id] as const;
  const rule = useQuery({ queryKey: key, queryFn: () => notificationsApi.rule(subject.kind, subject.id) });
  const recipients = useRecipients(rule.data);
  const [error, setError] = useState<string | null>(null);
  const done = (message: string) => {
    toast(message, "success");
    void qc.invalidateQueries({ queryKey: key });
    onClose();
  };
  const save = useMutation({
    mutationFn: () => notificationsApi.setRule(subject.kind, subject.id, recipients.body()),
    onSuccess: () => done(t("notifications.rule.saved")),
    onError: (err) => setError(errorText(err)),
  });
  const reset = useMutation({
    mutationFn: () => notificationsApi.clearRule(subject.kind, subject.id),
    onSuccess: () => done(t("notifications.rule.reset")),
    onError: (err) => setError(errorText(err)),
  });
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={t("notifications.rule.title")}
      description={subject.name}
      footer={
        <>
          <Button variant="outline" onClick={onClose}>
            {t("common.cancel")}
          </Button>
          {rule.data && !rule.data.uses_defaults ? (
            <Button variant="outline" disabled={reset.isPending} onClick={() => reset.mutate()}>
              {t("notifications.rule.useDefaults")}
            </Button>
          ) : null}
          <Button disabled={save.isPending || !rule.data} onClick={() => save.mutate()}>
            {t("common.save")}
          </Button>
        </>
      }
    >
      {rule.isPending ? (
        <Spinner />
      ) : rule.isError ? (
        <Alert>{errorText(rule.error)}</Alert>
      ) : (
        <div className="space-y-3">
          <p className="text-sm text-slate-600 dark:text-slate-300">
            {rule.data.uses_defaults
              ? t("notifications.rule.defaultsApply")
              : t("notifications.rule.ownApplies")}
          </p>
          <RecipientFields form={recipients} />
          {error ? <Alert>{error}</Alert> : null}
        </div>
      )}
    </Dialog>
  );
}
