/**
 * Messages between the instances of one deployment over PostgreSQL
 * LISTEN/NOTIFY. Every instance listens on a dedicated connection and sends
 * with NOTIFY; its own messages come back and are dropped by origin.
 *
 * A listener that loses its connection may have missed messages, so it
 * reports `healthy = false`, asks for a reset (`onReset`), and reconnects
 * with backoff. Channel names are fixed identifiers chosen by the caller.
 */
import { sql } from "kysely";
import type pg from "pg";
import type { Logger } from "../logger";
import { type Db, loadPg } from "./database";

export interface NotifyHandlers<Message> {
  onMessage(message: Message): void;
  /** Messages may have been lost. */
  onReset(): void;
}

/** Sends a message to every instance listening on `channel`; `origin` names the sender. */
export async function notifyChannel(db: Db, channel: string, message: object, origin: string): Promise<void> {
  const payload = JSON.stringify({ ...message, origin });
  await sql`select pg_notify(${channel}, ${payload})`.execute(db);
}

export class PgNotifyBus<Message extends object> {
  private client: pg.Client | null = null;
  private connected = false;
  private closed = false;
  private retryMs = 500;
  private retryTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly url: string,
    private readonly db: Db,
    private readonly channel: string,
    private readonly instanceId: string,
    private readonly handlers: NotifyHandlers<Message>,
    private readonly log: Logger,
  ) {}

  get healthy(): boolean {
    return this.connected;
  }

  async start(): Promise<void> {
    await this.connect();
  }

  async publish(message: Message): Promise<void> {
    await notifyChannel(this.db, this.channel, message, this.instanceId);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    const client = this.client;
    this.client = null;
    this.connected = false;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    const client = new (loadPg().Client)({ connectionString: this.url });
    client.on("notification", (msg) => this.receive(msg.payload));
    client.on("error", (err) => this.lost(client, err));
    client.on("end", () => this.lost(client, null));
    try {
      await client.connect();
      await client.query(`LISTEN ${this.channel}`);
    } catch (err) {
      this.lost(client, err as Error);
      return;
    }
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    // Anything cached before (or while disconnected) may have missed invalidations.
    this.handlers.onReset();
    this.connected = true;
    this.retryMs = 500;
  }

  private receive(payload: string | undefined): void {
    if (!payload) return;
    let message: Message & { origin?: string };
    try {
      message = JSON.parse(payload);
    } catch {
      return;
    }
    if (message.origin === this.instanceId) return;
    this.handlers.onMessage(message);
  }

  private lost(client: pg.Client, err: Error | null): void {
    if (this.closed || (this.client !== null && this.client !== client)) return;
    const wasConnected = this.connected;
    this.connected = false;
    this.client = null;
    client.removeAllListeners("end");
    client.end().catch(() => undefined);
    if (wasConnected) {
      this.log.warn({ err }, "Lost the cache invalidation channel; caches are bypassed until it is back");
      this.handlers.onReset();
    }
    if (this.retryTimer) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      void this.connect();
    }, this.retryMs);
    this.retryTimer.unref();
    this.retryMs = Math.min(this.retryMs * 2, 30_000);
  }
}
