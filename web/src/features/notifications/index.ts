// Notifications in the web app: a share's or request's own recipients (the dialog other features
// open from their lists), and the admin's settings with the delivery log.
export { NotificationRuleDialog } from "./components/notification-rule-dialog";
export { NotificationSettingsCard } from "./components/notification-settings-card";
