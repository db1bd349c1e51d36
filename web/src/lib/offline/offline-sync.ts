import {
  type CreatedPaste,
  type OfflineWriteRequest,
  RELOAD_DELAY_MS,
  SYNC_STATUS_WAIT_MS,
} from "@clipshare/shared";
import { translate } from "../../i18n";
import { AUTH_EVENTS, authStore, currentCredentials } from "../auth-store";
import { toast } from "../notices";
import { recentPastes } from "../recent-pastes";
import { clearSignedInData, sweepExpired } from "./offline-cache";
import { offlineDb, type QueuedWriteType } from "./offline-db";
import {
  discardEntry,
  enqueue,
  entrySender,
  forgetQueuedCredentials,
  listQueue,
  type ReplayReport,
  replayQueue,
  retryEntry,
  withQueueLock,
} from "./offline-queue";
import { QUEUE_REPLAYED_EVENT, queueStatus } from "./queue-status";
import { QUEUE_REPLAYED_MESSAGE, QUEUE_SYNC_TAG } from "./sw-protocol";

/**
 * The page's side of the offline layer: keeps the queue status current, sends
 * the queue when the network is back (Background Sync in the service worker
 * where the browser has it, otherwise here, one entry after another) and
 * reacts to the outcome. Loaded lazily.
 */

export async function refreshQueueStatus(): Promise<void> {
  const entries = await listQueue(offlineDb());
  queueStatus.set(
    entries.map((e) => ({
      id: e.id ?? 0,
      type: e.type,
      status: e.status,
      error: e.error,
      httpStatus: e.httpStatus,
      timestamp: e.timestamp,
    })),
  );
}

async function registerBackgroundSync(): Promise<boolean> {
  if (!("serviceWorker" in navigator) || !navigator.serviceWorker.controller) return false;
  try {
    const registration = (await navigator.serviceWorker.ready) as ServiceWorkerRegistration & {
      sync?: { register(tag: string): Promise<void> };
    };
    if (!registration.sync) return false;
    await registration.sync.register(QUEUE_SYNC_TAG);
    return true;
  } catch {
    return false;
  }
}

export async function queueWrite(write: OfflineWriteRequest<QueuedWriteType>): Promise<void> {
  // The first write of a browser with no local database yet: the layer starts now.
  void startOfflineLayer();
  await enqueue(offlineDb(), write);
  await refreshQueueStatus();
  // Lets the browser send it even if this tab is closed before the network returns.
  void registerBackgroundSync();
}

let workerReport: ((report: ReplayReport) => void) | null = null;

function waitForWorkerReport(ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      workerReport = null;
      resolve(false);
    }, ms);
    workerReport = () => {
      clearTimeout(timer);
      workerReport = null;
      resolve(true);
    };
  });
}

let syncing: Promise<void> | null = null;

/** Sends what is pending; one run at a time per page (and per origin through a lock). */
export function syncOfflineQueue(): Promise<void> {
  syncing ??= runSync().finally(() => {
    syncing = null;
  });
  return syncing;
}

async function runSync(): Promise<void> {
  if (!navigator.onLine) return;
  const pending = (await listQueue(offlineDb())).some((e) => e.status === "pending");
  if (!pending) return;
  if (await registerBackgroundSync()) {
    // The service worker reports when it has replayed; if it stays silent, replay here.
    if (await waitForWorkerReport(SYNC_STATUS_WAIT_MS)) return;
  }
  const report = await withQueueLock(() => replayQueue(offlineDb(), entrySender()));
  await handleReport(report);
}

function t(key: string, values?: Record<string, unknown>): string {
  return translate(key as never, values);
}

async function handleReport(report: ReplayReport): Promise<void> {
  // A paste written offline joins Home's recent pastes once it exists.
  for (const sent of report.sent)
    if (sent.type === "paste-create" && sent.data) recentPastes.remember(sent.data as CreatedPaste);
  await refreshQueueStatus();
  window.dispatchEvent(new CustomEvent(QUEUE_REPLAYED_EVENT, { detail: report }));
  if (report.sent.length > 0)
    toast(() => t("offlineApp.queue.sent", { count: report.sent.length }), "success");
  if (report.failed > 0)
    toast(() => t("offlineApp.queue.failedToast", { count: report.failed }), "error", 6000);
  if (report.authRequired > 0) {
    toast(() => t("offlineApp.queue.signInAgain", { count: report.authRequired }), "error", 8000);
  }
  // Management views show lists the replay just changed.
  if (report.touchedPastes && window.location.pathname.startsWith("/admin")) {
    setTimeout(() => window.location.reload(), RELOAD_DELAY_MS);
  }
}

export async function retryQueued(id: number): Promise<boolean> {
  const ok = await retryEntry(offlineDb(), id, currentCredentials());
  await refreshQueueStatus();
  if (ok) void syncOfflineQueue();
  return ok;
}

export async function discardQueued(id: number): Promise<void> {
  await discardEntry(offlineDb(), id);
  await refreshQueueStatus();
}

let started = false;

/** Once per page, after the first paint. */
export async function startOfflineLayer(): Promise<void> {
  if (started) return;
  started = true;
  const db = offlineDb();
  navigator.serviceWorker?.addEventListener("message", (event: MessageEvent) => {
    const message = event.data as { type?: string; report?: ReplayReport } | null;
    if (message?.type !== QUEUE_REPLAYED_MESSAGE || !message.report) return;
    workerReport?.(message.report);
    void handleReport(message.report);
  });
  window.addEventListener(AUTH_EVENTS.changed, (event) => {
    const detail = (event as CustomEvent<{ reason?: string }>).detail;
    if (authStore.getState().authType !== "none") return;
    void clearSignedInData(db);
    // A deliberate sign-out takes the session's credential off the queued writes too.
    if (detail?.reason === "user") void forgetQueuedCredentials(db).then(refreshQueueStatus);
  });
  for (const name of [AUTH_EVENTS.adminTokenExpired, AUTH_EVENTS.apiKeyInvalid]) {
    window.addEventListener(name, () => void clearSignedInData(db));
  }
  try {
    await sweepExpired(db);
    // Nobody signed in on this device: nothing signed-in may stay, not even a queued credential.
    if (authStore.getState().authType === "none") {
      await clearSignedInData(db);
      await forgetQueuedCredentials(db);
    }
    await refreshQueueStatus();
  } catch {
    // IndexedDB unavailable (private mode, blocked): the app works online without it.
    return;
  }
  void syncOfflineQueue();
}
