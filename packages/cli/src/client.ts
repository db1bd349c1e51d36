/**
 * What every command shares: where the server is and which key to send
 * (flags, then environment, then the config file), the HTTP calls (through
 * the shared API client of packages/shared), and the exit codes scripts rely on.
 */
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import {
  type ApiClient,
  ApiError,
  authorizationHeader,
  createApiClient,
  type ErrorCode,
  errorCodeOf,
  isApiError,
} from "@clipshare/shared";

/** Exit codes, documented in the package README; scripts branch on them. */
export const EXIT = {
  ok: 0,
  usage: 1,
  auth: 2,
  notFound: 3,
  server: 4,
  refused: 5,
} as const;

/** A failure with a stable message and the exit code it maps to. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
    readonly status: number | null = null,
    /** The server's error id, which commands switch on. */
    readonly error: ErrorCode | null = null,
  ) {
    super(message);
  }
}

export const usageError = (message: string) => new CliError(message, EXIT.usage);

function exitCodeFor(status: number): number {
  if (status === 401 || status === 403) return EXIT.auth;
  if (status === 404 || status === 410) return EXIT.notFound;
  if (status >= 500) return EXIT.server;
  return EXIT.refused;
}

export interface Config {
  url: string;
  apiKey: string | null;
}

export function configDir(env = process.env): string {
  return path.join(env.XDG_CONFIG_HOME || path.join(os.homedir(), ".config"), "clipshare");
}

export function cacheDir(env = process.env): string {
  return path.join(env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache"), "clipshare");
}

const configFile = () => path.join(configDir(), "config.json");

async function readConfigFile(): Promise<{ url?: string; api_key?: string }> {
  try {
    return JSON.parse(await readFile(configFile(), "utf8"));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return {};
    throw new CliError(`Cannot read ${configFile()}: ${(e as Error).message}`, EXIT.usage);
  }
}

/** Saves the server and key for later runs; the file holds a secret, so only its owner may read it. */
export async function saveConfig(config: Config): Promise<string> {
  const file = configFile();
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  await writeFile(file, `${JSON.stringify({ url: config.url, api_key: config.apiKey }, null, 2)}\n`, {
    mode: 0o600,
  });
  await chmod(file, 0o600);
  return file;
}

/** Flags win over the environment, which wins over the config file. */
export async function loadConfig(flags: { url?: string; "api-key"?: string }): Promise<Config> {
  const file = await readConfigFile();
  // An empty variable counts as unset.
  const url = flags.url || process.env.CLIPSHARE_URL || file.url;
  if (!url) throw usageError("No server: pass --url, set CLIPSHARE_URL or run `clipshare login`");
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw usageError(`Not a server URL: ${url}`);
  }
  const apiKey = flags["api-key"] || process.env.CLIPSHARE_API_KEY || file.api_key || null;
  return { url: parsed.origin + parsed.pathname.replace(/\/+$/, ""), apiKey };
}

/** A request body: bytes, text, or an async iterable of chunks (streamed). */
export type RequestBody = NonNullable<RequestInit["body"]> | AsyncIterable<Uint8Array>;

export interface RequestOptions {
  method?: string;
  json?: unknown;
  body?: RequestBody;
  headers?: Record<string, string>;
  /** Send the API key (default true). */
  auth?: boolean;
}

/** The failure of a call as the CLI reports it: the server's message and id, and the exit code. */
function cliErrorOf(e: unknown, server: string): unknown {
  if (!isApiError(e)) return e;
  if (e.kind === "http" || e.kind === "envelope")
    return new CliError(e.serverMessage || `HTTP ${e.status}`, exitCodeFor(e.status), e.status, e.errorId);
  if (e.kind === "parse") return new CliError(`${server} answered with malformed JSON`, EXIT.server);
  const cause = (e.cause as { cause?: { code?: string; message?: string }; message?: string }) ?? {};
  return new CliError(
    `Cannot reach ${server}: ${cause.cause?.code ?? cause.cause?.message ?? cause.message ?? e.kind}`,
    EXIT.server,
  );
}

export class Client {
  /** The shared ClipShare API client (envelope, typed errors, auth header), without a timeout. */
  private readonly api: ApiClient;

  constructor(readonly config: Config) {
    this.api = createApiClient({
      baseUrl: () => config.url,
      credentials: () => (config.apiKey ? { type: "apikey", key: config.apiKey } : null),
      // A command waits as long as its transfer takes.
      defaultTimeoutMs: 0,
    });
  }

  /** An absolute URL for a server path (or the URL itself when it already is one). */
  resolve(pathOrUrl: string): string {
    return new URL(pathOrUrl, `${this.config.url}/`).toString();
  }

  requireKey(): void {
    if (!this.config.apiKey)
      throw new CliError(
        "No API key: pass --api-key, set CLIPSHARE_API_KEY or run `clipshare login`",
        EXIT.auth,
      );
  }

  /** The raw response of any URL (downloads, part uploads); network failures become exit code 4. */
  async fetch(pathOrUrl: string, options: RequestOptions = {}): Promise<Response> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.auth !== false && this.config.apiKey)
      headers.Authorization = authorizationHeader({ type: "apikey", key: this.config.apiKey });
    const body = options.body;
    try {
      return await fetch(this.resolve(pathOrUrl), {
        method: options.method ?? (body ? "POST" : "GET"),
        headers,
        body: body as RequestInit["body"],
        // Streaming request bodies need half duplex.
        ...(body && typeof body === "object" && Symbol.asyncIterator in body ? { duplex: "half" } : {}),
      } as RequestInit);
    } catch (e) {
      throw cliErrorOf(new ApiError({ kind: "network", cause: e }), this.config.url);
    }
  }

  /** Calls of a typed call set over the shared client (e.g. `fileRequestApi`), failing as `call` does. */
  async use<T>(calls: (api: ApiClient) => Promise<T>): Promise<T> {
    try {
      return await calls(this.api);
    } catch (e) {
      throw cliErrorOf(e, this.config.url);
    }
  }

  /**
   * A JSON call to an API path (below /api): the `data` of the envelope (or the
   * bare body some 0.7.3 routes answer with). A failure throws with the server's
   * message and error id.
   */
  async call<T = Record<string, unknown>>(apiPath: string, options: RequestOptions = {}): Promise<T> {
    const body = options.json ?? options.body;
    try {
      const response = await this.api.request<T>(apiPath, {
        method: options.method ?? (body !== undefined ? "POST" : "GET"),
        body,
        ...(options.headers ? { headers: options.headers } : {}),
        auth: options.auth === false ? "none" : "session",
      });
      return response.data;
    } catch (e) {
      throw cliErrorOf(e, this.config.url);
    }
  }
}

/** Throws the server's message and id when a raw response failed (JSON envelope or plain text). */
export async function failOnError(response: Response): Promise<void> {
  if (response.ok) return;
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // a plain-text error
  }
  const envelopeMessage = (body as { message?: unknown } | null)?.message;
  const message =
    typeof envelopeMessage === "string"
      ? envelopeMessage
      : text.trim().slice(0, 300) || `HTTP ${response.status}`;
  throw new CliError(message, exitCodeFor(response.status), response.status, errorCodeOf(body));
}
