/**
 * The "notify" task: sends one delivery (notification-service.ts), once.
 *
 * The delivery is claimed by one conditional UPDATE (pending → sending), so a
 * task run twice (a restart, another instance) sends nothing twice; a send
 * cut off by a dead process stays "sending" and the sweep marks it failed,
 * never sent again. A webhook is a JSON POST through the URL-fetch rules
 * (private, loopback and metadata addresses refused unless URL_FETCH_ALLOW
 * lists them; redirects not followed) signed with HMAC-SHA256 over
 * "<timestamp>.<body>"; an e-mail goes through the SMTP settings. A failure
 * worth retrying (no answer, 408, 429, 5xx, an SMTP 4xx) queues the next
 * attempt after a growing pause; a refusal (another 4xx, SMTP 5xx, a refused
 * address) fails at once.
 */
import { randomUUID } from "node:crypto";
import { WEBHOOK_HEADERS } from "@clipshare/shared";
import type { Db } from "../../db/database";
import { nowIso } from "../../db/database";
import type { NotificationDeliveryRow } from "../../db/schema";
import { isAppError } from "../../errors";
import { hmacSha256 } from "../../lib/crypto";
import { MailError, sendMail } from "../../lib/mail";
import type { SafeFetcher } from "../../lib/net/safe-fetch";
import type { TaskHandler } from "../tasks/task-runner";
import type { TaskService } from "../tasks/task-service";
import type { NotificationSettingsService } from "./notification-settings";

/** Pauses before the 2nd, 3rd, … attempt, in seconds; after the last, the delivery has failed. */
export const RETRY_DELAYS_SECONDS = [10, 60, 300, 1800, 7200] as const;

/** The signature header's value for a body sent at `timestamp` (receivers compute the same). */
export function webhookSignature(secret: string, timestamp: number, body: string): string {
  return `sha256=${hmacSha256(Buffer.from(secret, "utf8"), `${timestamp}.${body}`).toString("hex")}`;
}

interface Attempt {
  ok: boolean;
  status: number | null;
  error: string | null;
  /** Worth another try later. */
  retry: boolean;
}

const RETRY_STATUSES = new Set([408, 425, 429]);

export interface DeliveryDeps {
  db: Db;
  settings: NotificationSettingsService;
  fetcher: SafeFetcher;
  tasks: TaskService;
  tasksQueued: () => void;
}

export function notifyTaskHandler(deps: DeliveryDeps): TaskHandler {
  return async (run) => {
    const id = (run.payload as { delivery_id?: unknown } | null)?.delivery_id;
    if (typeof id !== "string") return { status: "failed", error: "No delivery named" };
    const now = nowIso();
    const claimed = await deps.db
      .updateTable("notification_deliveries")
      .set((eb) => ({ status: "sending", attempts: eb("attempts", "+", 1), updated_at: now }))
      .where("id", "=", id)
      .where("status", "=", "pending")
      .returningAll()
      .executeTakeFirst();
    // Sent, failed or being sent by another run: nothing to do here.
    if (!claimed) return { status: "completed" };
    const attempt =
      claimed.channel === "email"
        ? await sendEmail(deps, claimed)
        : await sendWebhook(deps, claimed, run.signal);
    const done = nowIso();
    if (attempt.ok) {
      await settle(deps.db, id, {
        status: "delivered",
        delivered_at: done,
        last_status: attempt.status,
        last_error: null,
      });
      return { status: "completed" };
    }
    const delay = RETRY_DELAYS_SECONDS[claimed.attempts - 1];
    if (attempt.retry && delay !== undefined) {
      const due = new Date(Date.now() + delay * 1000);
      await settle(deps.db, id, {
        status: "pending",
        next_attempt_at: nowIso(due),
        last_status: attempt.status,
        last_error: attempt.error,
      });
      await deps.tasks.create(run.principal, "notify", { delivery_id: id }, {}, randomUUID(), due);
      deps.tasksQueued();
    } else {
      await settle(deps.db, id, { status: "failed", last_status: attempt.status, last_error: attempt.error });
    }
    return { status: "completed" };
  };
}

async function settle(db: Db, id: string, patch: Partial<NotificationDeliveryRow>): Promise<void> {
  await db
    .updateTable("notification_deliveries")
    .set({ ...patch, updated_at: nowIso() })
    .where("id", "=", id)
    .where("status", "=", "sending")
    .execute();
}

async function sendWebhook(
  deps: DeliveryDeps,
  delivery: NotificationDeliveryRow,
  signal: AbortSignal,
): Promise<Attempt> {
  const secret = deps.settings.webhookSecret(await deps.settings.row());
  const timestamp = Math.floor(Date.now() / 1000);
  const body = Buffer.from(delivery.payload, "utf8");
  try {
    const res = await deps.fetcher.open(delivery.target, {
      method: "POST",
      body,
      followRedirects: false,
      maxBytes: 64 * 1024,
      signal,
      headers: {
        "content-type": "application/json",
        "content-length": String(body.length),
        [WEBHOOK_HEADERS.signature.toLowerCase()]: webhookSignature(secret, timestamp, delivery.payload),
        [WEBHOOK_HEADERS.timestamp.toLowerCase()]: String(timestamp),
        [WEBHOOK_HEADERS.event.toLowerCase()]: delivery.event,
        [WEBHOOK_HEADERS.delivery.toLowerCase()]: delivery.id,
      },
    });
    res.body.resume();
    if (res.status >= 200 && res.status < 300)
      return { ok: true, status: res.status, error: null, retry: false };
    const retry = res.status >= 500 || RETRY_STATUSES.has(res.status);
    return { ok: false, status: res.status, error: `The receiver answered ${res.status}`, retry };
  } catch (e) {
    // A refused address is final; a timeout or a connection that failed may work later.
    const refused = isAppError(e) && (e.error === "url_not_allowed" || e.error === "invalid_url");
    return { ok: false, status: null, error: e instanceof Error ? e.message : String(e), retry: !refused };
  }
}

async function sendEmail(deps: DeliveryDeps, delivery: NotificationDeliveryRow): Promise<Attempt> {
  const smtp = deps.settings.smtp(await deps.settings.row());
  if (!smtp) return { ok: false, status: null, error: "E-mail is not set up (SMTP settings)", retry: false };
  const message = mailFor(delivery);
  try {
    const code = await sendMail(smtp.server, { from: smtp.from, to: delivery.target, ...message });
    return { ok: true, status: code, error: null, retry: false };
  } catch (e) {
    const err = e instanceof MailError ? e : new MailError(String(e), null);
    return { ok: false, status: err.responseCode, error: err.message, retry: !err.permanent };
  }
}

const EVENT_SUBJECTS: Record<string, (name: string) => string> = {
  request_received: (name) => `A file arrived for your request "${name}"`,
  share_opened: (name) => `"${name}" was opened for the first time`,
  share_last_view: (name) => `"${name}" used its last view`,
  share_expired: (name) => `"${name}" has expired`,
  test: () => "ClipShare test notification",
};

/** The e-mail of a delivery: a subject line and the payload's facts as plain text. */
export function mailFor(delivery: NotificationDeliveryRow): { subject: string; text: string } {
  const payload = JSON.parse(delivery.payload) as {
    event: string;
    occurred_at: string;
    subject: { kind: string; slug: string; name: string | null; path: string };
    data: Record<string, unknown>;
  };
  const name = payload.subject.name || payload.subject.slug;
  const subject = `ClipShare: ${(EVENT_SUBJECTS[payload.event] ?? ((n: string) => `${payload.event}: ${n}`))(name)}`;
  const lines = [
    subject.replace(/^ClipShare: /, ""),
    "",
    `What: ${payload.subject.kind} ${name} (${payload.subject.path})`,
    `When: ${payload.occurred_at}`,
    ...Object.entries(payload.data).map(([key, value]) => `${key}: ${String(value)}`),
    "",
    `Delivery ${delivery.id}`,
  ];
  return { subject, text: lines.join("\n") };
}
