import { z } from "zod";
import { NOTIFICATION_EVENTS, NOTIFICATION_SUBJECTS, SMTP_SECURITY } from "../schemas/notifications";
import { listPagination } from "./pastes";

/** What the notification routes answer in `data`. */

const nullableString = z.string().nullable();

/** The settings for the admin: no SMTP password, the signing secret receivers verify with. */
export const notificationSettings = z.strictObject({
  smtp_host: nullableString,
  smtp_port: z.number().nullable(),
  smtp_security: z.enum(SMTP_SECURITY),
  smtp_user: nullableString,
  has_smtp_password: z.boolean(),
  smtp_from: nullableString,
  /** Host and sender are set: e-mails can be sent. */
  smtp_configured: z.boolean(),
  default_email: nullableString,
  default_webhook_url: nullableString,
  default_events: z.array(z.enum(NOTIFICATION_EVENTS)),
  webhook_secret: z.string(),
});
export type NotificationSettings = z.infer<typeof notificationSettings>;

/** A share's or request's recipients: its own rule, or the defaults. */
export const notificationRule = z.strictObject({
  subject_kind: z.enum(NOTIFICATION_SUBJECTS),
  subject_id: z.string(),
  /** No rule of its own: the defaults apply. */
  uses_defaults: z.boolean(),
  email: nullableString,
  webhook_url: nullableString,
  events: z.array(z.enum(NOTIFICATION_EVENTS)),
});
export type NotificationRule = z.infer<typeof notificationRule>;

/** A user's own defaults for their shares and requests without a rule; or the administrator's, which apply until set. */
export const accountNotificationDefaults = z.strictObject({
  /** No defaults of the user's own: the administrator's apply (shown here). */
  uses_admin_defaults: z.boolean(),
  email: nullableString,
  webhook_url: nullableString,
  events: z.array(z.enum(NOTIFICATION_EVENTS)),
});
export type AccountNotificationDefaults = z.infer<typeof accountNotificationDefaults>;

/** One event to one target, as the delivery log shows it. */
export const notificationDelivery = z.strictObject({
  id: z.string(),
  event: z.string(),
  subject_kind: z.string(),
  subject_id: z.string(),
  channel: z.enum(["webhook", "email"]),
  target: z.string(),
  status: z.enum(["pending", "sending", "delivered", "failed"]),
  attempts: z.number(),
  next_attempt_at: nullableString,
  /** The receiver's HTTP status, or the SMTP reply code. */
  last_status: z.number().nullable(),
  last_error: nullableString,
  created_at: z.string(),
  updated_at: z.string(),
  delivered_at: nullableString,
});
export type NotificationDelivery = z.infer<typeof notificationDelivery>;

export const notificationDeliveryList = z.strictObject({
  deliveries: z.array(notificationDelivery),
  pagination: listPagination,
});
export type NotificationDeliveryList = z.infer<typeof notificationDeliveryList>;
