import { ApiError, type AuthFailure, classifyUnauthorized, type RequestContext } from "./api-error";
import { REQUEST_TIMEOUT_MS, UPLOAD_TIMEOUT_MS } from "./constants";
import { errorCodeOf } from "./errors";

/**
 * ClipShare's API client, used by the web app (web/src/lib/api.ts) and the CLI
 * (packages/cli/src/client.ts): base URL, auth header, the JSON envelope, typed
 * errors (ApiError with the server's ErrorCode), timeouts, abort, and the 401
 * rules. Free of DOM and React so it runs under unit tests with a fake fetch.
 */

export type Credentials = { type: "admin"; token: string } | { type: "apikey"; key: string };

export type QueryValue = string | number | boolean | null | undefined;
export type Query = Record<string, QueryValue | QueryValue[]>;

export interface RequestOptions<OfflineType extends string = string> {
  method?: string;
  query?: Query;
  /**
   * Plain objects and arrays go as JSON; Blob, FormData, ArrayBuffer, strings,
   * streams and async iterables of bytes (streamed) as they are.
   */
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** The client's default (30 s unless configured); `upload: true` makes it 5 minutes. 0 disables the timer. */
  timeoutMs?: number;
  upload?: boolean;
  /** "none" sends no Authorization header; a Credentials object overrides the signed-in one. */
  auth?: "session" | "none" | Credentials;
  context?: RequestContext;
  /**
   * A write that may wait for the network: when the request cannot reach the
   * server it is handed to `enqueueOffline` and fails with kind "queued".
   */
  offline?: OfflineType;
}

/** A queueable write that found no network (see RequestOptions.offline). */
export interface OfflineWriteRequest<OfflineType extends string = string> {
  type: OfflineType;
  endpoint: string;
  method: string;
  data: unknown;
  credentials: Credentials | null;
  baseUrl: string;
}

export interface ApiResponse<T> {
  data: T;
  code: number;
  message: string;
  status: number;
  headers: Headers;
  /** The whole JSON envelope, for top-level fields beside `data` (e.g. `pagination` of list calls). */
  envelope: Record<string, unknown> | null;
}

export interface ApiClientConfig<OfflineType extends string = string> {
  /** Backend base URL ("" = same origin); the client appends `/api`. */
  baseUrl: () => string;
  /** Timeout of a request that names none (default 30 s; 0: none, as a command-line client wants). */
  defaultTimeoutMs?: number;
  fetch?: typeof fetch;
  credentials?: () => Credentials | null;
  /** Called when a 401 means the signed-in credential is no longer valid. */
  onAuthFailure?: (failure: AuthFailure, error: ApiError) => void;
  /** UI language, sent as Accept-Language so the server can answer in it. */
  language?: () => string | null;
  /** Headers every request carries (the web app's folder passes, X-Folder-Token). */
  headers?: () => Record<string, string>;
  /** Keeps a queueable write for later; rejects when it cannot (then the network error stands). */
  enqueueOffline?: (write: OfflineWriteRequest<OfflineType>) => Promise<void>;
}

const OK_CODES = new Set([200, 201, 202]);

export function authorizationHeader(credentials: Credentials): string {
  return credentials.type === "admin" ? `Bearer ${credentials.token}` : `ApiKey ${credentials.key}`;
}

/** `path` below `/api` of `baseUrl`; an absolute URL (a link the server handed out) is kept as it is. */
export function buildUrl(baseUrl: string, path: string, query?: Query): string {
  let url: string;
  if (/^https?:\/\//i.test(path)) url = path;
  else {
    const prefix = `${baseUrl.replace(/\/+$/, "")}/api`;
    url = `${prefix}${path.startsWith("/") ? path : `/${path}`}`;
  }
  if (query) {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) {
      const values = Array.isArray(value) ? value : [value];
      for (const v of values) {
        if (v === undefined || v === null) continue;
        params.append(key, String(v));
      }
    }
    const qs = params.toString();
    if (qs) url += (url.includes("?") ? "&" : "?") + qs;
  }
  return url;
}

/** What fetch takes as a body (DOM and Node typings name it differently). */
type RequestBodyInit = NonNullable<RequestInit["body"]>;

function isAsyncIterable(body: unknown): body is AsyncIterable<Uint8Array> {
  return typeof body === "object" && body !== null && Symbol.asyncIterator in body;
}

function isRawBody(body: unknown): body is RequestBodyInit | AsyncIterable<Uint8Array> {
  return (
    isAsyncIterable(body) ||
    typeof body === "string" ||
    (typeof Blob !== "undefined" && body instanceof Blob) ||
    (typeof FormData !== "undefined" && body instanceof FormData) ||
    (typeof URLSearchParams !== "undefined" && body instanceof URLSearchParams) ||
    (typeof ReadableStream !== "undefined" && body instanceof ReadableStream) ||
    body instanceof ArrayBuffer ||
    ArrayBuffer.isView(body)
  );
}

interface Envelope {
  code?: unknown;
  message?: unknown;
  error?: unknown;
  data?: unknown;
  details?: unknown;
}

function asEnvelope(value: unknown): Envelope | null {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Envelope) : null;
}

function parseRetryAfter(headers: Headers): number | null {
  const raw = headers.get("retry-after");
  if (!raw) return null;
  const seconds = Number(raw);
  if (Number.isFinite(seconds)) return Math.max(0, Math.ceil(seconds));
  const date = Date.parse(raw);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

export function createApiClient<OfflineType extends string = string>(config: ApiClientConfig<OfflineType>) {
  const doFetch = (input: string, init: RequestInit) => (config.fetch ?? globalThis.fetch)(input, init);

  async function request<T = unknown>(
    path: string,
    options: RequestOptions<OfflineType> = {},
  ): Promise<ApiResponse<T>> {
    const method = (options.method ?? "GET").toUpperCase();
    const context = options.context ?? "default";
    const url = buildUrl(config.baseUrl(), path, options.query);

    const credentials =
      options.auth === "none"
        ? null
        : options.auth && options.auth !== "session"
          ? options.auth
          : (config.credentials?.() ?? null);

    const headers: Record<string, string> = { Accept: "application/json" };
    const language = config.language?.();
    if (language) headers["Accept-Language"] = language;
    if (credentials) headers.Authorization = authorizationHeader(credentials);
    Object.assign(headers, config.headers?.());

    let body: RequestBodyInit | AsyncIterable<Uint8Array> | undefined;
    if (options.body !== undefined && options.body !== null) {
      if (isRawBody(options.body)) {
        body = options.body;
      } else {
        body = JSON.stringify(options.body);
        headers["Content-Type"] = "application/json";
      }
    }
    Object.assign(headers, options.headers);

    // One controller for both reasons a request stops early, so we can tell them apart.
    const controller = new AbortController();
    let timedOut = false;
    const timeoutMs =
      options.timeoutMs ??
      (options.upload ? UPLOAD_TIMEOUT_MS : (config.defaultTimeoutMs ?? REQUEST_TIMEOUT_MS));
    const timer =
      timeoutMs > 0
        ? setTimeout(() => {
            timedOut = true;
            controller.abort();
          }, timeoutMs)
        : null;
    const onCallerAbort = () => controller.abort();
    if (options.signal) {
      if (options.signal.aborted) controller.abort();
      else options.signal.addEventListener("abort", onCallerAbort, { once: true });
    }

    const fail = (kind: "network" | "timeout" | "abort" | "parse", cause?: unknown) =>
      new ApiError({ kind, context, cause });

    try {
      let response: Response;
      try {
        // A streamed body needs half duplex (fetch in Node and Chromium).
        const streamed =
          isAsyncIterable(body) || (typeof ReadableStream !== "undefined" && body instanceof ReadableStream);
        response = await doFetch(url, {
          method,
          headers,
          body: body as RequestBodyInit | undefined,
          signal: controller.signal,
          ...(streamed ? { duplex: "half" } : {}),
        } as RequestInit);
      } catch (cause) {
        if (timedOut) throw fail("timeout", cause);
        if (controller.signal.aborted) throw fail("abort", cause);
        if (options.offline && config.enqueueOffline && !isRawBody(options.body)) {
          try {
            await config.enqueueOffline({
              type: options.offline,
              // The path below /api with its query, as the replay sends it again.
              endpoint: buildUrl("", path, options.query).slice("/api".length),
              method,
              data: options.body ?? null,
              credentials,
              baseUrl: config.baseUrl(),
            });
          } catch {
            throw fail("network", cause);
          }
          throw new ApiError({ kind: "queued", context, cause });
        }
        throw fail("network", cause);
      }

      let payload: unknown = null;
      let parsedJson = false;
      try {
        if (response.status !== 204 && method !== "HEAD") {
          const text = await response.text();
          const type = response.headers.get("content-type") ?? "";
          if (text.length > 0 && (type.includes("json") || (!type && /^[[{]/.test(text.trim())))) {
            try {
              payload = JSON.parse(text);
              parsedJson = true;
            } catch (cause) {
              if (response.ok) throw fail("parse", cause);
              payload = null;
            }
          } else {
            payload = text.length > 0 ? text : null;
          }
        }
      } catch (cause) {
        if (cause instanceof ApiError) throw cause;
        if (timedOut) throw fail("timeout", cause);
        if (controller.signal.aborted) throw fail("abort", cause);
        throw fail("network", cause);
      }

      const envelope = parsedJson ? asEnvelope(payload) : null;
      const serverMessage =
        typeof envelope?.message === "string"
          ? envelope.message
          : typeof payload === "string" && payload.length <= 500
            ? payload.trim()
            : null;
      const errorId = errorCodeOf(envelope);

      if (!response.ok) {
        const status = response.status;
        const authFailure =
          status === 401
            ? classifyUnauthorized({ path, authType: credentials?.type ?? null, context, errorId })
            : null;
        const error = new ApiError({
          kind: "http",
          status,
          errorId,
          serverMessage,
          context,
          authFailure,
          retryAfter: parseRetryAfter(response.headers),
          details: envelope?.details,
        });
        if (authFailure && authFailure !== "api-key-unauthorized") config.onAuthFailure?.(authFailure, error);
        throw error;
      }

      if (envelope && typeof envelope.code === "number") {
        if (!OK_CODES.has(envelope.code)) {
          throw new ApiError({
            kind: "envelope",
            status: envelope.code,
            errorId,
            serverMessage,
            context,
            details: envelope.details,
          });
        }
        return {
          data: (envelope.data ?? null) as T,
          code: envelope.code,
          message: typeof envelope.message === "string" ? envelope.message : "",
          status: response.status,
          headers: response.headers,
          envelope: envelope as Record<string, unknown>,
        };
      }

      // JSON without a `code` (health) and plain text pass through unchanged.
      return {
        data: payload as T,
        code: response.status,
        message: "",
        status: response.status,
        headers: response.headers,
        envelope: null,
      };
    } finally {
      if (timer) clearTimeout(timer);
      options.signal?.removeEventListener("abort", onCallerAbort);
    }
  }

  const dataOf = async <T>(p: Promise<ApiResponse<T>>) => (await p).data;

  return {
    request,
    get: <T = unknown>(path: string, options?: Omit<RequestOptions<OfflineType>, "method" | "body">) =>
      dataOf(request<T>(path, { ...options, method: "GET" })),
    post: <T = unknown>(
      path: string,
      body?: unknown,
      options?: Omit<RequestOptions<OfflineType>, "method" | "body">,
    ) => dataOf(request<T>(path, { ...options, method: "POST", body })),
    put: <T = unknown>(
      path: string,
      body?: unknown,
      options?: Omit<RequestOptions<OfflineType>, "method" | "body">,
    ) => dataOf(request<T>(path, { ...options, method: "PUT", body })),
    delete: <T = unknown>(
      path: string,
      body?: unknown,
      options?: Omit<RequestOptions<OfflineType>, "method" | "body">,
    ) => dataOf(request<T>(path, { ...options, method: "DELETE", body })),
    url: (path: string, query?: Query) => buildUrl(config.baseUrl(), path, query),
  };
}

export type ApiClient<OfflineType extends string = string> = ReturnType<typeof createApiClient<OfflineType>>;
