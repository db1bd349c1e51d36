import { readString, writeString } from "./storage";

/** Shape of `window.__CLIPSHARE_CONFIG__`, set by the server's /config.js. */
export interface RuntimeConfig {
  /** Backend origin (e.g. "https://clip.example.com"); empty means the page's own origin. */
  apiBaseUrl?: string;
}

declare global {
  interface Window {
    __CLIPSHARE_CONFIG__?: RuntimeConfig;
  }
}

/** localStorage key of the backend URL chosen in the environment switcher. */
export const BACKEND_URL_STORAGE_KEY = "api_base_url";

export type BaseUrlSource = "runtime" | "stored" | "default";

export interface ResolvedBaseUrl {
  /** Origin (or origin + path prefix) without a trailing slash; "" = same origin. */
  url: string;
  source: BaseUrlSource;
}

export function normalizeBaseUrl(value: string): string {
  return value.trim().replace(/\/+$/, "");
}

/** True for an absolute http(s) URL, the only kind the environment switcher accepts. */
export function isValidBackendUrl(value: string): boolean {
  try {
    const u = new URL(value.trim());
    return (u.protocol === "http:" || u.protocol === "https:") && !u.search && !u.hash;
  } catch {
    return false;
  }
}

/**
 * Backend base URL, in order: the server's runtime config (when it names one),
 * then the stored setting, then the page's own origin.
 */
export function resolveBaseUrl(
  runtime: RuntimeConfig | undefined = typeof window === "undefined"
    ? undefined
    : window.__CLIPSHARE_CONFIG__,
  stored: string | null = readString(BACKEND_URL_STORAGE_KEY),
): ResolvedBaseUrl {
  const fromRuntime = runtime?.apiBaseUrl ? normalizeBaseUrl(runtime.apiBaseUrl) : "";
  if (fromRuntime) return { url: fromRuntime, source: "runtime" };
  const fromStore = stored ? normalizeBaseUrl(stored) : "";
  if (fromStore && isValidBackendUrl(fromStore)) return { url: fromStore, source: "stored" };
  return { url: "", source: "default" };
}

export function getStoredBackendUrl(): string | null {
  return readString(BACKEND_URL_STORAGE_KEY);
}

export function setStoredBackendUrl(url: string | null): void {
  writeString(BACKEND_URL_STORAGE_KEY, url ? normalizeBaseUrl(url) : null);
}
