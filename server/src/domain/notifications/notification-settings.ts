/**
 * The notification settings (one row, the administrator's): the SMTP server
 * (its password encrypted with the server's SecretBox, never answered), the
 * default recipients and events for shares and requests without a rule of
 * their own, and the secret webhooks are signed with (encrypted; made on first
 * use, shown to the administrator, who gives it to the receivers).
 */
import {
  NOTIFICATION_EVENTS,
  type NotificationEvent,
  type NotificationSettings,
  type NotificationSettingsBody,
} from "@clipshare/shared";
import type { Db } from "../../db/database";
import { nowIso } from "../../db/database";
import type { NotificationSettingsRow } from "../../db/schema";
import { randomToken, type SecretBox } from "../../lib/crypto";
import type { SmtpServer } from "../../lib/mail";
import type { SafeFetcher } from "../../lib/net/safe-fetch";

const ROW_ID = "default";

export function parseEvents(text: string | null | undefined): NotificationEvent[] {
  try {
    const list = JSON.parse(text ?? "[]") as unknown;
    return Array.isArray(list) ? NOTIFICATION_EVENTS.filter((e) => list.includes(e)) : [];
  } catch {
    return [];
  }
}

export class NotificationSettingsService {
  constructor(
    private readonly db: Db,
    private readonly secrets: SecretBox,
    private readonly fetcher: SafeFetcher,
  ) {}

  /** The row, made with its defaults (every event, no recipient, a fresh secret) on first use. */
  async row(): Promise<NotificationSettingsRow> {
    const found = await this.db
      .selectFrom("notification_settings")
      .selectAll()
      .where("id", "=", ROW_ID)
      .executeTakeFirst();
    if (found) return found;
    await this.db
      .insertInto("notification_settings")
      .values({
        id: ROW_ID,
        smtp_host: null,
        smtp_port: null,
        smtp_user: null,
        smtp_password_enc: null,
        smtp_from: null,
        default_email: null,
        default_webhook_url: null,
        default_events: JSON.stringify(NOTIFICATION_EVENTS),
        webhook_secret_enc: this.secrets.seal(randomToken()),
        updated_at: nowIso(),
      })
      .onConflict((oc) => oc.column("id").doNothing())
      .execute();
    return this.db
      .selectFrom("notification_settings")
      .selectAll()
      .where("id", "=", ROW_ID)
      .executeTakeFirstOrThrow();
  }

  async get(): Promise<NotificationSettings> {
    return this.present(await this.row());
  }

  /** Webhook addresses pass the URL-fetch rules here already (a literal private address is refused). */
  async update(body: NotificationSettingsBody): Promise<NotificationSettings> {
    if (body.default_webhook_url) this.fetcher.check(body.default_webhook_url);
    const row = await this.row();
    const patch: Partial<NotificationSettingsRow> = { updated_at: nowIso() };
    if (body.smtp_host !== undefined) patch.smtp_host = body.smtp_host;
    if (body.smtp_port !== undefined) patch.smtp_port = body.smtp_port;
    if (body.smtp_security !== undefined) patch.smtp_security = body.smtp_security;
    if (body.smtp_user !== undefined) patch.smtp_user = body.smtp_user || null;
    if (body.smtp_password !== undefined)
      patch.smtp_password_enc = body.smtp_password ? this.secrets.seal(body.smtp_password) : null;
    if (body.smtp_from !== undefined) patch.smtp_from = body.smtp_from;
    if (body.default_email !== undefined) patch.default_email = body.default_email;
    if (body.default_webhook_url !== undefined) patch.default_webhook_url = body.default_webhook_url;
    if (body.default_events !== undefined) patch.default_events = JSON.stringify(body.default_events);
    if (body.regenerate_secret) patch.webhook_secret_enc = this.secrets.seal(randomToken());
    await this.db.updateTable("notification_settings").set(patch).where("id", "=", ROW_ID).execute();
    return this.present({ ...row, ...patch });
  }

  /** The SMTP server and sender, or null while e-mail is not set up. */
  smtp(row: NotificationSettingsRow): { server: SmtpServer; from: string } | null {
    if (!row.smtp_host || !row.smtp_from) return null;
    const security =
      row.smtp_security === "tls" || row.smtp_security === "none" ? row.smtp_security : "starttls";
    return {
      server: {
        host: row.smtp_host,
        port: row.smtp_port ?? (security === "tls" ? 465 : 587),
        security,
        user: row.smtp_user,
        password: row.smtp_password_enc ? this.secrets.open(row.smtp_password_enc) : null,
      },
      from: row.smtp_from,
    };
  }

  /** The HMAC key of webhook signatures. */
  webhookSecret(row: NotificationSettingsRow): string {
    return row.webhook_secret_enc ? this.secrets.open(row.webhook_secret_enc) : "";
  }

  private present(row: NotificationSettingsRow): NotificationSettings {
    const security =
      row.smtp_security === "tls" || row.smtp_security === "none" ? row.smtp_security : "starttls";
    return {
      smtp_host: row.smtp_host,
      smtp_port: row.smtp_port,
      smtp_security: security,
      smtp_user: row.smtp_user,
      has_smtp_password: row.smtp_password_enc !== null,
      smtp_from: row.smtp_from,
      smtp_configured: Boolean(row.smtp_host && row.smtp_from),
      default_email: row.default_email,
      default_webhook_url: row.default_webhook_url,
      default_events: parseEvents(row.default_events),
      webhook_secret: this.webhookSecret(row),
    };
  }
}
