import type { OfflineWriteRequest } from "@clipshare/shared";
import { type Credentials, createApiClient } from "@clipshare/shared";
import type { ApiError, AuthFailure } from "./api-error";
import { folderPassHeaders } from "./folder-passes";
import type { QueuedWriteType } from "./offline/offline-db";
import { resolveBaseUrl } from "./runtime-config";

/**
 * The app's API client instance. The auth store plugs itself in through
 * `bindApiAuth` (it imports this module, so the reverse import would be a cycle).
 */
let credentialSource: () => Credentials | null = () => null;
let authFailureHandler: ((failure: AuthFailure, error: ApiError) => void) | null = null;

export function bindApiAuth(
  source: () => Credentials | null,
  onFailure: (failure: AuthFailure, error: ApiError) => void,
): void {
  credentialSource = source;
  authFailureHandler = onFailure;
}

/** The signed-in credentials, for requests made outside the client (XMLHttpRequest uploads). */
export function currentCredentials(): Credentials | null {
  return credentialSource();
}

/** Lets a request made outside the client sign the user out the way the client would. */
export function reportAuthFailure(failure: AuthFailure, error: ApiError): void {
  authFailureHandler?.(failure, error);
}

type OfflineQueue = (write: OfflineWriteRequest<QueuedWriteType>) => Promise<void>;
let offlineQueue: OfflineQueue | null = null;

/**
 * The offline layer plugs its queue in (offline-layer.ts), so this module never imports the
 * layer, which needs the auth store, which needs this module. Unplugged, a write without a
 * network simply fails.
 */
export function bindOfflineQueue(queue: OfflineQueue): void {
  offlineQueue = queue;
}

/** Resolved once per page load; the environment switcher reloads the page after a change. */
export const apiBase = resolveBaseUrl();

export const api = createApiClient<QueuedWriteType>({
  baseUrl: () => apiBase.url,
  credentials: () => credentialSource(),
  onAuthFailure: (failure, error) => authFailureHandler?.(failure, error),
  language: () => (typeof document === "undefined" ? null : document.documentElement.lang || null),
  headers: folderPassHeaders,
  // Writes made without a network wait in the local database (loaded only when needed).
  enqueueOffline: (write) =>
    offlineQueue ? offlineQueue(write) : Promise.reject(new Error("No offline queue in this page")),
});
