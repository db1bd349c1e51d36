/**
 * Notifications (domain/notifications): the administrator's settings (SMTP,
 * default recipients and events, the signing secret), a test notification and
 * the delivery log under /admin/notifications; a share's or request's own
 * recipients under /notifications/rules/:kind/:id, for its creator; a user's own
 * defaults under /account/notifications.
 */
import {
  NOTIFICATION_SUBJECTS,
  type NotificationSubject,
  notificationDeliveriesQuery,
  notificationRuleBody,
  notificationSettingsBody,
  notificationTestBody,
  Permission,
} from "@clipshare/shared";
import { type Context, Hono } from "hono";
import { ownAccountId, requireAdmin, requireAnyPermission } from "../../auth/policy";
import type { AppContext } from "../../context";
import { notFound } from "../../errors";
import { parseWith, readJson } from "../body";
import { ok } from "../envelope";
import { described, type RouteDoc } from "../route-doc";
import type { AppEnv } from "../types";

const TAG = "Notifications";
const admin = (doc: Omit<RouteDoc, "tag" | "access">): RouteDoc => ({ ...doc, tag: TAG, access: "admin" });
/** A paste's rule needs the text bit, the others the file-share bit. */
const owner = (doc: Omit<RouteDoc, "tag" | "access" | "permissions" | "anyPermission">): RouteDoc => ({
  ...doc,
  tag: TAG,
  access: "key",
  permissions: ["TEXT", "FILE_SHARE"],
  anyPermission: true,
});

/** The kind named in the path, for a caller holding one of the bits a rule may need (checked first). */
function subjectKind(c: Context<AppEnv>): NotificationSubject {
  requireAnyPermission(c.get("principal"), Permission.TEXT | Permission.FILE_SHARE);
  const kind = c.req.param("kind");
  const known = NOTIFICATION_SUBJECTS.find((k) => k === kind);
  if (!known)
    throw notFound("No share or file request of yours has this id", "notification_subject_not_found");
  return known;
}

export function notificationRoutes(ctx: AppContext) {
  const app = new Hono<AppEnv>();
  const notifications = ctx.notifications;

  app.get(
    "/admin/notifications/settings",
    described(
      (w) => admin({ summary: "The notification settings (no SMTP password)", data: w.notificationSettings }),
      async (c) => {
        requireAdmin(c.get("principal"));
        return ok(c, await notifications.settings.get(), "Fetched");
      },
    ),
  );
  app.put(
    "/admin/notifications/settings",
    described(
      (w) =>
        admin({
          summary: "Change the SMTP server, default recipients and events, or the signing secret",
          errors: ["url_not_allowed", "invalid_url"],
          body: w.notificationSettingsBody,
          data: w.notificationSettings,
        }),
      async (c) => {
        requireAdmin(c.get("principal"));
        const body = await readJson(c, notificationSettingsBody);
        return ok(c, await notifications.settings.update(body), "Notification settings saved");
      },
    ),
  );
  app.post(
    "/admin/notifications/test",
    described(
      (w) =>
        admin({
          summary: "Queue a test notification to the default recipient of a channel",
          errors: ["notification_target_missing", "smtp_not_configured"],
          body: w.notificationTestBody,
          data: w.notificationDelivery,
        }),
      async (c) => {
        requireAdmin(c.get("principal"));
        const body = await readJson(c, notificationTestBody);
        return ok(c, await notifications.test(c.get("principal"), body.channel), "Test queued", 202);
      },
    ),
  );
  app.get(
    "/admin/notifications/deliveries",
    described(
      (w) =>
        admin({
          summary: "The delivery log, newest first",
          query: w.notificationDeliveriesQuery,
          data: w.notificationDeliveryList,
        }),
      async (c) => {
        requireAdmin(c.get("principal"));
        const q = parseWith(notificationDeliveriesQuery, c.req.query());
        const limit = q.limit ?? 50;
        const offset = q.offset ?? 0;
        const { items, total } = await notifications.deliveries({ limit, offset, status: q.status });
        return ok(
          c,
          { deliveries: items, pagination: { total, limit, offset, hasMore: offset + items.length < total } },
          "Fetched",
        );
      },
    ),
  );

  const ruleErrors = ["notification_subject_not_found"] as const;
  app.get(
    "/notifications/rules/:kind/:id",
    described(
      (w) =>
        owner({
          summary: "Who is told about a share or file request (its own rule, or the defaults)",
          errors: [...ruleErrors],
          data: w.notificationRule,
        }),
      async (c) => {
        const kind = subjectKind(c);
        return ok(c, await notifications.rule(c.get("principal"), kind, c.req.param("id")!), "Fetched");
      },
    ),
  );
  app.put(
    "/notifications/rules/:kind/:id",
    described(
      (w) =>
        owner({
          summary: "Set a share's or file request's own recipients and events",
          errors: [...ruleErrors, "url_not_allowed", "invalid_url"],
          body: w.notificationRuleBody,
          data: w.notificationRule,
        }),
      async (c) => {
        const kind = subjectKind(c);
        const body = await readJson(c, notificationRuleBody);
        return ok(
          c,
          await notifications.setRule(c.get("principal"), kind, c.req.param("id")!, body),
          "Saved",
        );
      },
    ),
  );
  app.delete(
    "/notifications/rules/:kind/:id",
    described(
      (w) =>
        owner({
          summary: "Back to the default recipients",
          errors: [...ruleErrors],
          data: w.notificationRule,
        }),
      async (c) => {
        const kind = subjectKind(c);
        return ok(c, await notifications.clearRule(c.get("principal"), kind, c.req.param("id")!), "Reset");
      },
    ),
  );

  // A signed-in account's own defaults (not an API key's: a key speaks for its user, who sets them).
  const account = (doc: Omit<RouteDoc, "tag" | "access">): RouteDoc => ({
    ...doc,
    tag: TAG,
    access: "account",
  });
  app.get(
    "/account/notifications",
    described(
      (w) =>
        account({
          summary: "Your default recipients and events (or the administrator's, until you set yours)",
          data: w.accountNotificationDefaults,
        }),
      async (c) => ok(c, await notifications.accountDefaults(ownAccountId(c.get("principal"))), "Fetched"),
    ),
  );
  app.put(
    "/account/notifications",
    described(
      (w) =>
        account({
          summary: "Set who is told about your shares and file requests that have no rule of their own",
          errors: ["url_not_allowed", "invalid_url"],
          body: w.notificationRuleBody,
          data: w.accountNotificationDefaults,
        }),
      async (c) => {
        const userId = ownAccountId(c.get("principal"));
        const body = await readJson(c, notificationRuleBody);
        return ok(c, await notifications.setAccountDefaults(userId, body), "Saved");
      },
    ),
  );
  app.delete(
    "/account/notifications",
    described(
      (w) =>
        account({
          summary: "Back to the administrator's default recipients",
          data: w.accountNotificationDefaults,
        }),
      async (c) => ok(c, await notifications.clearAccountDefaults(ownAccountId(c.get("principal"))), "Reset"),
    ),
  );

  return app;
}
