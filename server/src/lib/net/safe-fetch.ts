/**
 * Fetches user-given URLs without letting them reach what they must not:
 * every hop (the URL and each redirect, at most five) passes url-guard.ts and
 * connects to the address that was checked; connect and idle timeouts bound a
 * slow server; the body is a stream limited to `maxBytes` (a declared
 * Content-Length above it is refused before any byte is read). Nothing of the
 * caller's request (cookies, authorization) is forwarded: the only headers
 * sent are the ones named here.
 */
import http, { type IncomingHttpHeaders, type IncomingMessage } from "node:http";
import https from "node:https";
import { isIP } from "node:net";
import type { Readable } from "node:stream";
import { AppError, badRequest, isAppError, payloadTooLarge } from "../../errors";
import { Meter } from "../ingest";
import { effectivePort, HostAllowList } from "./host-allow-list";
import { bareHost, parseTargetUrl, pinnedLookup, type Resolver, systemResolver } from "./url-guard";

export const MAX_REDIRECTS = 5;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

export interface SafeFetchOptions {
  allow?: HostAllowList;
  resolve?: Resolver;
  connectTimeoutMs?: number;
  /** No byte in either direction for this long ends the request. */
  idleTimeoutMs?: number;
  userAgent?: string;
}

export interface FetchRequest {
  method?: string;
  /** A small request body (storage checks); uploads of user data never go this way. */
  body?: Buffer;
  /** Default true. False returns a redirect as it is (S3 endpoints must never send us elsewhere). */
  followRedirects?: boolean;
  /** Extra request headers (e.g. Range); never the caller's cookies or credentials. */
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Body limit; a larger declared or actual body fails with 413 and `tooLarge()`'s text. */
  maxBytes?: number;
  tooLarge?: (actual: number | null) => string;
}

export interface RemoteResponse {
  /** The URL that answered, after redirects. */
  url: URL;
  status: number;
  headers: IncomingHttpHeaders;
  /** Declared length, or null when the server did not say. */
  contentLength: number | null;
  /** The body, limited; empty for HEAD. Destroy it when not consuming it. */
  body: Readable;
}

/** The reason this side ended a request (a timeout), which the socket error would hide. */
interface Failure {
  error: AppError | null;
}

const upstream = (status: number) =>
  new AppError(502, "upstream_error", `Server returned error status: ${status}`, { status });

/** Network failures in the vocabulary of the API. */
function mapNetworkError(e: unknown, url: URL): unknown {
  if (isAppError(e)) return e;
  const err = e as NodeJS.ErrnoException;
  if (err?.name === "AbortError") return e;
  const code = err?.code ?? "";
  if (code === "ENOTFOUND" || code === "EAI_AGAIN")
    return badRequest(`Cannot access URL: host ${url.hostname} not found`, "url_unreachable");
  return badRequest(`Cannot access URL: ${err?.message || code || "connection failed"}`, "url_unreachable");
}

export class SafeFetcher {
  private readonly allow: HostAllowList;
  private readonly resolve: Resolver;
  private readonly connectTimeoutMs: number;
  private readonly idleTimeoutMs: number;
  private readonly userAgent: string;

  constructor(options: SafeFetchOptions = {}) {
    this.allow = options.allow ?? new HostAllowList([]);
    this.resolve = options.resolve ?? systemResolver;
    this.connectTimeoutMs = options.connectTimeoutMs ?? 10_000;
    this.idleTimeoutMs = options.idleTimeoutMs ?? 30_000;
    this.userAgent = options.userAgent ?? "ClipShare";
  }

  /** Checks a URL without connecting (scheme, credentials, literal addresses); throws the API error. */
  check(raw: string): URL {
    return parseTargetUrl(raw, this.allow).url;
  }

  /** Follows redirects (re-checked each time) and returns the final response, whatever its status. */
  async open(raw: string, request: FetchRequest = {}): Promise<RemoteResponse> {
    let target = raw;
    for (let hop = 0; ; hop++) {
      const { url, allowListed } = parseTargetUrl(target, this.allow);
      const { res, failure } = await this.once(url, allowListed, request);
      const location = res.headers.location;
      const follow = request.followRedirects !== false && REDIRECT_STATUSES.has(res.statusCode ?? 0);
      if (!follow || !location) return this.wrap(url, res, failure, request);
      res.destroy();
      if (hop >= MAX_REDIRECTS)
        throw badRequest(`Cannot access URL: more than ${MAX_REDIRECTS} redirects`, "too_many_redirects");
      try {
        target = new URL(location, url).toString();
      } catch {
        throw badRequest("Cannot access URL: the server redirected to an invalid address", "url_unreachable");
      }
    }
  }

  /** Like `open`, but a status outside 2xx is an error (502 "Server returned error status: N"). */
  async openOk(raw: string, request: FetchRequest = {}): Promise<RemoteResponse> {
    const res = await this.open(raw, request);
    if (res.status < 200 || res.status > 299) {
      res.body.destroy();
      throw upstream(res.status);
    }
    return res;
  }

  private wrap(url: URL, res: IncomingMessage, failure: Failure, request: FetchRequest): RemoteResponse {
    const declared = res.headers["content-length"];
    const contentLength = declared && /^\d+$/.test(declared) ? Number(declared) : null;
    const max = request.maxBytes ?? Number.POSITIVE_INFINITY;
    const message =
      request.tooLarge ?? ((n) => `The remote file is too large${n !== null ? ` (${n} bytes)` : ""}`);
    const ok = (res.statusCode ?? 0) >= 200 && (res.statusCode ?? 0) <= 299;
    if (ok && request.method !== "HEAD" && contentLength !== null && contentLength > max) {
      res.destroy();
      throw payloadTooLarge(message(contentLength));
    }
    const limit = new Meter(max, () => payloadTooLarge(message(null)));
    res.on("error", (e) => limit.destroy((failure.error ?? mapNetworkError(e, url)) as Error));
    limit.on("close", () => res.destroy());
    res.pipe(limit);
    return { url, status: res.statusCode ?? 0, headers: res.headers, contentLength, body: limit };
  }

  private once(
    url: URL,
    allowListed: boolean,
    request: FetchRequest,
  ): Promise<{ res: IncomingMessage; failure: Failure }> {
    const host = bareHost(url.hostname);
    const secure = url.protocol === "https:";
    const failure: Failure = { error: null };
    const fail = (socket: { destroy(e: Error): void }, e: AppError) => {
      failure.error = e;
      socket.destroy(e);
    };
    return new Promise((resolve, reject) => {
      const req = (secure ? https : http).request({
        protocol: url.protocol,
        host,
        port: effectivePort(url),
        path: `${url.pathname}${url.search}`,
        method: request.method ?? "GET",
        headers: {
          "user-agent": this.userAgent,
          accept: "*/*",
          // Stored bytes must be the file itself, and Content-Length its size.
          "accept-encoding": "identity",
          ...request.headers,
        },
        // A fresh connection per request: the lookup below decides its address, never a pooled socket.
        agent: false,
        lookup: pinnedLookup(!allowListed, this.resolve),
        ...(secure && !isIP(host) ? { servername: host } : {}),
        signal: request.signal,
      });
      let connected = false;
      const connectTimer = setTimeout(() => {
        fail(
          req,
          new AppError(
            504,
            "url_timeout",
            `Cannot access URL: no connection within ${this.connectTimeoutMs / 1000} s`,
          ),
        );
      }, this.connectTimeoutMs);
      req.on("socket", (socket) => {
        socket.once(secure ? "secureConnect" : "connect", () => {
          connected = true;
          clearTimeout(connectTimer);
        });
        socket.setTimeout(this.idleTimeoutMs, () => {
          if (!connected) return; // the connect timer covers that phase
          fail(
            socket,
            new AppError(504, "url_timeout", `Cannot access URL: no data for ${this.idleTimeoutMs / 1000} s`),
          );
        });
      });
      req.on("response", (res) => {
        clearTimeout(connectTimer);
        resolve({ res, failure });
      });
      req.on("error", (e) => {
        clearTimeout(connectTimer);
        reject(failure.error ?? mapNetworkError(e, url));
      });
      req.on("close", () => clearTimeout(connectTimer));
      req.end(request.body);
    });
  }
}
