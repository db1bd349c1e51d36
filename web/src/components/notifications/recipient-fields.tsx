import type { NotificationEvent } from "@clipshare/shared";
import { useEffect, useState } from "react";
import { useTranslation } from "../../i18n";
import { TextField } from "../ui/form";
import { EventCheckboxes } from "./event-checkboxes";

/** Who is told and about what, as the server answers and takes it. */
export interface Recipients {
  email: string | null;
  webhook_url: string | null;
  events: NotificationEvent[];
}

/** The recipients being edited, started over from each answer of the server. */
export function useRecipients(loaded: Recipients | undefined) {
  const [email, setEmail] = useState("");
  const [webhook, setWebhook] = useState("");
  const [events, setEvents] = useState<NotificationEvent[]>([]);
  useEffect(() => {
    if (!loaded) return;
    setEmail(loaded.email ?? "");
    setWebhook(loaded.webhook_url ?? "");
    setEvents(loaded.events);
  }, [loaded]);
  return {
    email,
    setEmail,
    webhook,
    setWebhook,
    events,
    setEvents,
    /** The body to save: blank fields are no recipient. */
    body: (): Recipients => ({ email: email.trim() || null, webhook_url: webhook.trim() || null, events }),
  };
}

/** E-mail address, webhook address and the events, for a rule or a user's own defaults. */
export function RecipientFields({ form }: { form: ReturnType<typeof useRecipients> }) {
  const { t } = useTranslation();
  return (
    <>
      <TextField
        label={t("notifications.email")}
        type="email"
        value={form.email}
        onChange={(e) => form.setEmail(e.target.value)}
      />
      <TextField
        label={t("notifications.webhook")}
        hint={t("notifications.webhookHint")}
        type="url"
        value={form.webhook}
        onChange={(e) => form.setWebhook(e.target.value)}
      />
      <EventCheckboxes value={form.events} onChange={form.setEvents} />
    </>
  );
}
