import {
  type ApiClient,
  type Credentials,
  createApiClient,
  type OfflineWriteRequest,
} from "@clipshare/shared";
import { isApiError } from "../api-error";
import type { OfflineDb, QueuedWriteType, QueueEntry } from "./offline-db";
import { QUEUE_LOCK } from "./sw-protocol";

/**
 * The offline write queue: calls made without a network are kept in the local
 * database with the credentials of the moment and sent again later, oldest
 * first. Free of DOM and React: the page and the service worker both run it.
 */

export async function enqueue(
  db: OfflineDb,
  write: OfflineWriteRequest<QueuedWriteType>,
  now = Date.now(),
): Promise<number> {
  const entry: QueueEntry = {
    type: write.type,
    endpoint: write.endpoint,
    method: write.method,
    data: write.data ?? null,
    authType: write.credentials?.type ?? "none",
    authToken: write.credentials ? credentialSecret(write.credentials) : null,
    baseUrl: write.baseUrl,
    timestamp: now,
    status: "pending",
    httpStatus: null,
    error: null,
    attempts: 0,
  };
  return db.offlineQueue.add(entry);
}

function credentialSecret(c: Credentials): string {
  return c.type === "admin" ? c.token : c.key;
}

function credentialsOf(entry: QueueEntry): Credentials | null {
  if (!entry.authToken) return null;
  if (entry.authType === "admin") return { type: "admin", token: entry.authToken };
  if (entry.authType === "apikey") return { type: "apikey", key: entry.authToken };
  return null;
}

/** The queue in replay order: by the time each write was made, then by id. */
export function listQueue(db: OfflineDb): Promise<QueueEntry[]> {
  return db.offlineQueue.all({ index: "timestamp" });
}

/** Sends one entry; resolves with the response data or throws an ApiError. */
export type SendEntry = (entry: QueueEntry) => Promise<unknown>;

/** Sends entries with the credentials they were queued with, never the page's session. */
export function entrySender(fetchImpl?: typeof fetch): SendEntry {
  const clients = new Map<string, ApiClient>();
  return async (entry) => {
    let client = clients.get(entry.baseUrl);
    if (!client) {
      client = createApiClient({ baseUrl: () => entry.baseUrl, fetch: fetchImpl });
      clients.set(entry.baseUrl, client);
    }
    const credentials = credentialsOf(entry);
    const res = await client.request(entry.endpoint, {
      method: entry.method,
      body: entry.data ?? undefined,
      auth: credentials ?? "none",
      context: entry.type === "file-verify" ? "password" : "default",
    });
    return res.data;
  };
}

export interface ReplayResult {
  id: number;
  type: QueuedWriteType;
  endpoint: string;
  data: unknown;
}

export interface ReplayReport {
  sent: ReplayResult[];
  failed: number;
  authRequired: number;
  /** The network went away again: the rest stays pending for the next sync. */
  interrupted: boolean;
  /** A sent entry changed pastes: management views reload. */
  touchedPastes: boolean;
}

/** A failure that says nothing about the request itself: try again later. */
function isTransient(error: unknown): boolean {
  return (
    isApiError(error) && (error.kind === "network" || error.kind === "timeout" || error.kind === "abort")
  );
}

/**
 * Sends the pending entries one after another in queue order. A success is
 * removed; a refusal stays with its status and message (401: "auth_required",
 * so the user can sign in again and retry); losing the network stops the run
 * and leaves the rest pending.
 */
export async function replayQueue(db: OfflineDb, send: SendEntry): Promise<ReplayReport> {
  const report: ReplayReport = {
    sent: [],
    failed: 0,
    authRequired: 0,
    interrupted: false,
    touchedPastes: false,
  };
  for (const entry of await listQueue(db)) {
    if (entry.status !== "pending" || entry.id === undefined) continue;
    let data: unknown;
    try {
      data = await send(entry);
    } catch (error) {
      if (isTransient(error)) {
        report.interrupted = true;
        break;
      }
      const status = isApiError(error) && error.kind === "http" ? error.status : null;
      const authRequired = status === 401 && entry.type !== "file-verify";
      await db.offlineQueue.update(entry.id, {
        status: authRequired ? "auth_required" : "failed",
        httpStatus: status,
        error: errorMessage(error),
        attempts: entry.attempts + 1,
      });
      if (authRequired) report.authRequired += 1;
      else report.failed += 1;
      continue;
    }
    await db.offlineQueue.delete(entry.id);
    report.sent.push({ id: entry.id, type: entry.type, endpoint: entry.endpoint, data });
    if (entry.type.startsWith("paste-")) report.touchedPastes = true;
  }
  return report;
}

function errorMessage(error: unknown): string {
  if (isApiError(error)) return error.serverMessage || error.message;
  return error instanceof Error ? error.message : String(error);
}

/**
 * Puts a failed entry back in line. An entry refused for its credentials takes
 * the current ones (the user has signed in again); without any it stays put.
 */
export async function retryEntry(db: OfflineDb, id: number, current: Credentials | null): Promise<boolean> {
  const entry = await db.offlineQueue.get(id);
  if (!entry) return false;
  const changes: Partial<QueueEntry> = { status: "pending", httpStatus: null, error: null };
  if (entry.status === "auth_required" || (entry.authType !== "none" && !entry.authToken)) {
    if (!current) return false;
    changes.authType = current.type;
    changes.authToken = credentialSecret(current);
  }
  await db.offlineQueue.update(id, changes);
  return true;
}

export async function discardEntry(db: OfflineDb, id: number): Promise<void> {
  await db.offlineQueue.delete(id);
}

/**
 * Sign-out: queued writes stay (they are the user's unsent work) but lose the
 * credential they carried, so they wait for the next sign-in.
 */
export async function forgetQueuedCredentials(db: OfflineDb): Promise<void> {
  await db.offlineQueue.modify((entry) =>
    entry.authToken === null ? undefined : { ...entry, authToken: null, status: "auth_required" },
  );
}

/** Runs `fn` under the origin-wide queue lock where the browser has Web Locks. */
export function withQueueLock<T>(fn: () => Promise<T>): Promise<T> {
  const locks = (globalThis.navigator as { locks?: LockManager } | undefined)?.locks;
  return locks ? (locks.request(QUEUE_LOCK, fn) as Promise<T>) : fn();
}
