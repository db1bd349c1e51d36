/**
 * Fan-out of cache invalidations between instances: the messages and the
 * bus interface. With SQLite there is one instance and nothing to send
 * (LocalCacheBus). With PostgreSQL every instance listens on one channel
 * (db/pg-notify-bus.ts); context.ts picks which.
 *
 * A bus that may have missed messages reports `healthy = false` (callers then
 * bypass their caches) and asks for a full local clear (`onReset`).
 */
import type { Db } from "../../db/database";
import { type NotifyHandlers, notifyChannel } from "../../db/pg-notify-bus";

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

/** onReset: messages may have been lost, drop every cache. */
export type BusHandlers = NotifyHandlers<BusMessage>;

/** Single instance: nothing to tell anyone. */
export class LocalCacheBus implements CacheBus {
  readonly healthy = true;
  async publish(): Promise<void> {}
  async close(): Promise<void> {}
}

export const CACHE_CHANNEL = "clipshare_fs";

/** Sends a message to every listening instance (PostgreSQL); `origin` names the sender. */
export function notifyInstances(db: Db, message: BusMessage, origin: string): Promise<void> {
  return notifyChannel(db, CACHE_CHANNEL, message, origin);
}
