/**
 * Fan-out of cache invalidations between instances. With SQLite there is one
 * instance and nothing to send. With PostgreSQL every instance LISTENs on one
 * channel on a dedicated connection and every change is sent with NOTIFY.
 *
 * A listener that loses its connection may have missed messages, so it
 * reports `healthy = false` (callers then bypass their caches), asks for a
 * full local clear, and reconnects with backoff.
 */
import { sql } from "kysely";
import type pg from "pg";
import { type Db, loadPg } from "../../db/database";
import type { Logger } from "../../logger";

export type BusMessage =
  | { op: "invalidate"; mountId: string; path: string; tree: boolean }
  | { op: "clear"; mountId?: string }
  | { op: "mounts" }
  | { op: "tasks" };

export interface CacheBus {
  /** False while invalidations from other instances may be missed. */
  readonly healthy: boolean;
  publish(message: BusMessage): Promise<void>;
  close(): Promise<void>;
}

export interface BusHandlers {
  onMessage(message: BusMessage): void;
  /** Messages may have been lost: drop every cache. */
  onReset(): void;
}

/** Single instance: nothing to tell anyone. */
export class LocalCacheBus implements CacheBus {
  readonly healthy = true;
  async publish(): Promise<void> {}
  async close(): Promise<void> {}
}

export const CACHE_CHANNEL = "clipshare_fs";

/** Sends a message to every listening instance (PostgreSQL); `origin` names the sender. */
export async function notifyInstances(db: Db, message: BusMessage, origin: string): Promise<void> {
  const payload = JSON.stringify({ ...message, origin });
  await sql`select pg_notify(${CACHE_CHANNEL}, ${payload})`.execute(db);
}

export class PgCacheBus implements CacheBus {
  private client: pg.Client | null = null;
  private connected = false;
  private closed = false;
  private retryMs = 500;
  private retryTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly url: string,
    private readonly db: Db,
    private readonly instanceId: string,
    private readonly handlers: BusHandlers,
    private readonly log: Logger,
  ) {}

  get healthy(): boolean {
    return this.connected;
  }

  async start(): Promise<void> {
    await this.connect();
  }

  async publish(message: BusMessage): Promise<void> {
    await notifyInstances(this.db, message, this.instanceId);
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
      await client.query(`LISTEN ${CACHE_CHANNEL}`);
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
    let message: BusMessage & { origin?: string };
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
