export { AccessLogDialog } from "./access-log-dialog";
export { AccessLogSettingsCard } from "./access-log-settings-card";
export { AccessSummaryCard } from "./access-summary-card";
export type { LoggedShare } from "./api";
export { useAccessLogAction } from "./row-action";
