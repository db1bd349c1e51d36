/**
 * What every command shares: where the server is and which key to send
 * (flags, then environment, then the config file), the HTTP calls with
 * ClipShare's JSON envelope, and the exit codes scripts rely on.
 */
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { type ErrorCode, errorCodeOf } from "@clipshare/shared";

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

export class Client {
  constructor(readonly config: Config) {}

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

  /** The raw response; network failures become exit code 4 with the cause. */
  async fetch(pathOrUrl: string, options: RequestOptions = {}): Promise<Response> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.auth !== false && this.config.apiKey) headers.Authorization = `ApiKey ${this.config.apiKey}`;
    let body = options.body;
    if (options.json !== undefined) {
      headers["Content-Type"] = "application/json";
      body = JSON.stringify(options.json);
    }
    try {
      return await fetch(this.resolve(pathOrUrl), {
        method: options.method ?? (body ? "POST" : "GET"),
        headers,
        body: body as RequestInit["body"],
        // Streaming request bodies need half duplex.
        ...(body && typeof body === "object" && Symbol.asyncIterator in body ? { duplex: "half" } : {}),
      } as RequestInit);
    } catch (e) {
      const cause = (e as { cause?: { code?: string; message?: string } }).cause;
      throw new CliError(
        `Cannot reach ${this.config.url}: ${cause?.code ?? cause?.message ?? (e as Error).message}`,
        EXIT.server,
      );
    }
  }

  /**
   * A JSON call: the `data` of the envelope (or the bare body some 0.7.3 routes
   * answer with). A non-2xx answer throws with the server's message.
   */
  async call<T = Record<string, unknown>>(pathOrUrl: string, options: RequestOptions = {}): Promise<T> {
    const response = await this.fetch(pathOrUrl, options);
    const body = await readBody(response);
    if (!response.ok) throw responseError(response, body);
    if (body && typeof body === "object" && "data" in body && "code" in body) return body.data as T;
    return body as T;
  }
}

async function readBody(response: Response): Promise<Record<string, unknown> | string | null> {
  const text = await response.text();
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The server's message and id (JSON envelope or a plain-text error). */
export function responseError(response: Response, body: unknown): CliError {
  let message = `HTTP ${response.status}`;
  const error = errorCodeOf(body);
  if (body && typeof body === "object") {
    const envelope = body as { message?: unknown };
    if (typeof envelope.message === "string") message = envelope.message;
  } else if (typeof body === "string" && body.trim()) {
    message = body.trim().slice(0, 300);
  }
  return new CliError(message, exitCodeFor(response.status), response.status, error);
}

export async function failOnError(response: Response): Promise<void> {
  if (!response.ok) throw responseError(response, await readBody(response));
}
