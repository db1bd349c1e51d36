import { z } from "zod";
import { onFirstUse } from "./on-first-use";

/** What can be notified: a request received a file; a share was first opened, used its last view, expired. */
export const NOTIFICATION_EVENTS = [
  "request_received",
  "share_opened",
  "share_last_view",
  "share_expired",
] as const;
export type NotificationEvent = (typeof NOTIFICATION_EVENTS)[number];

/** What a notification is about: a paste, a file share, a collection or a file request. */
export const NOTIFICATION_SUBJECTS = ["paste", "file", "collection", "request"] as const;
export type NotificationSubject = (typeof NOTIFICATION_SUBJECTS)[number];

export const SMTP_SECURITY = ["none", "starttls", "tls"] as const;

/** The headers of a webhook delivery; the signature is HMAC-SHA256 over "<timestamp>.<body>". */
export const WEBHOOK_HEADERS = {
  signature: "X-ClipShare-Signature",
  timestamp: "X-ClipShare-Timestamp",
  event: "X-ClipShare-Event",
  delivery: "X-ClipShare-Delivery",
} as const;

const email = z.string().trim().max(320).email("Enter an e-mail address");
const webhookUrl = z
  .string()
  .trim()
  .max(2048)
  .regex(/^https?:\/\//i, "A webhook address starts with http:// or https://");
const events = z.array(z.enum(NOTIFICATION_EVENTS)).max(NOTIFICATION_EVENTS.length);

/**
 * PUT /notifications/rules/:kind/:id: this share's or request's own recipients, in place of the
 * defaults; and PUT /account/notifications: a user's own defaults, in place of the administrator's.
 */
export const notificationRuleBody = onFirstUse(() =>
  z
    .object({
      email: z.union([email, z.null()]).optional().default(null),
      webhook_url: z.union([webhookUrl, z.null()]).optional().default(null),
      events: events.optional().default([...NOTIFICATION_EVENTS]),
    })
    .strict(),
);
export type NotificationRuleBody = z.output<typeof notificationRuleBody>;

/** PUT /admin/notifications/settings: any field; absent keeps, null clears. */
export const notificationSettingsBody = onFirstUse(() =>
  z
    .object({
      smtp_host: z.union([z.string().trim().min(1).max(255), z.null()]).optional(),
      smtp_port: z.union([z.number().int().min(1).max(65535), z.null()]).optional(),
      smtp_security: z.enum(SMTP_SECURITY).optional(),
      smtp_user: z.union([z.string().max(320), z.null()]).optional(),
      /** A new password; null removes it; absent keeps it. */
      smtp_password: z.union([z.string().max(1024), z.null()]).optional(),
      smtp_from: z.union([email, z.null()]).optional(),
      default_email: z.union([email, z.null()]).optional(),
      default_webhook_url: z.union([webhookUrl, z.null()]).optional(),
      default_events: events.optional(),
      /** A new signing secret: receivers must be given it. */
      regenerate_secret: z.boolean().optional(),
    })
    .strict(),
);
export type NotificationSettingsBody = z.output<typeof notificationSettingsBody>;

/** POST /admin/notifications/test: a test notification to the default recipient of one channel. */
export const notificationTestBody = onFirstUse(() =>
  z.object({ channel: z.enum(["email", "webhook"]) }).strict(),
);

/** GET /admin/notifications/deliveries: the delivery log, newest first. */
export const notificationDeliveriesQuery = onFirstUse(() =>
  z.object({
    limit: z.coerce.number().int().min(1).max(200).optional(),
    offset: z.coerce.number().int().min(0).optional(),
    status: z.enum(["pending", "sending", "delivered", "failed"]).optional(),
  }),
);
