import { NOTIFICATION_EVENTS, type NotificationEvent } from "@clipshare/shared";
import { useTranslation } from "../../i18n";
import { CheckboxField } from "../ui/checkbox";

/** Which events a recipient gets, one checkbox each. */
export function EventCheckboxes({
  value,
  onChange,
}: {
  value: NotificationEvent[];
  onChange: (events: NotificationEvent[]) => void;
}) {
  const { t } = useTranslation();
  return (
    <fieldset className="space-y-2">
      <legend className="mb-1 text-sm font-medium text-slate-700 dark:text-slate-200">
        {t("notifications.events")}
      </legend>
      {NOTIFICATION_EVENTS.map((event) => (
        <CheckboxField
          key={event}
          label={t(`notifications.event.${event}`)}
          checked={value.includes(event)}
          onCheckedChange={(on) => onChange(on ? [...value, event] : value.filter((e) => e !== event))}
        />
      ))}
    </fieldset>
  );
}
