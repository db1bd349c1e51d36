import type {
  AccountNotificationDefaults,
  NotificationDelivery,
  NotificationDeliveryList,
  NotificationRule,
  NotificationRuleBody,
  NotificationSettings,
  NotificationSettingsBody,
  NotificationSubject,
} from "@clipshare/shared";
import { api } from "./api";

export type {
  AccountNotificationDefaults,
  NotificationDelivery,
  NotificationRule,
  NotificationSettings,
  NotificationSubject,
};

const rulePath = (kind: NotificationSubject, id: string) =>
  `/notifications/rules/${kind}/${encodeURIComponent(id)}`;

export const notificationsApi = {
  settings: () => api.get<NotificationSettings>("/admin/notifications/settings"),
  saveSettings: (body: NotificationSettingsBody) =>
    api.put<NotificationSettings>("/admin/notifications/settings", body),
  test: (channel: "email" | "webhook") =>
    api.post<NotificationDelivery>("/admin/notifications/test", { channel }),
  deliveries: (query: { limit: number; offset: number }) =>
    api.get<NotificationDeliveryList>("/admin/notifications/deliveries", { query }),
  rule: (kind: NotificationSubject, id: string) => api.get<NotificationRule>(rulePath(kind, id)),
  setRule: (kind: NotificationSubject, id: string, body: NotificationRuleBody) =>
    api.put<NotificationRule>(rulePath(kind, id), body),
  clearRule: (kind: NotificationSubject, id: string) => api.delete<NotificationRule>(rulePath(kind, id)),
  accountDefaults: () => api.get<AccountNotificationDefaults>("/account/notifications"),
  setAccountDefaults: (body: NotificationRuleBody) =>
    api.put<AccountNotificationDefaults>("/account/notifications", body),
  clearAccountDefaults: () => api.delete<AccountNotificationDefaults>("/account/notifications"),
};
