/**
 * ClipShare's `Response`, installed as the global by the Node server. Most
 * answers are plain: a string, bytes or no body, with a plain record of headers
 * or none (Hono's `c.json()`, `c.text()`, `c.body()` build exactly these). Such
 * an answer keeps what it was given, and the server writes it with Node's
 * writeHead/end: no Fetch object is created for it. Anything else (a stream
 * body, a Fetch `Headers` object, reading `.headers` or `.body`, `clone()`)
 * builds Node's own Response from the same arguments on first use, and from
 * then on every property is that Response's. `instanceof Response` holds for
 * both.
 */
import { fetchClasses, NODE_CLASS, nodeClassReader } from "./fetch-classes";

type PlainBody = string | Uint8Array | null;
type Body = ConstructorParameters<typeof Response>[0];
type PlainHeaders = Record<string, string>;

/** An answer the Node server can write without Fetch objects. */
export interface PlainAnswer {
  status: number;
  statusText: string;
  /** Never modified: it may be the caller's own object. */
  headers: PlainHeaders | undefined;
  body: PlainBody;
}

/** Statuses a Response may not carry a body with. */
const NULL_BODY_STATUS = new Set([101, 103, 204, 205, 304]);

/** What the server says for an answer without a Content-Type, whether written plain or built. */
export const DEFAULT_CONTENT_TYPE = "text/plain; charset=UTF-8";

/** Whether a header record names `lowerName` (in any case). */
export function hasHeader(headers: object | undefined, lowerName: string): boolean {
  for (const name in headers)
    if (name.length === lowerName.length && name.toLowerCase() === lowerName) return true;
  return false;
}

function isPlainBody(body: unknown): body is PlainBody | undefined {
  return body == null || typeof body === "string" || body instanceof Uint8Array;
}

/** An object literal of string values; a Headers object or a list of pairs is not. */
function isPlainHeaders(headers: unknown): headers is PlainHeaders | undefined {
  if (headers === undefined) return true;
  if (typeof headers !== "object" || headers === null) return false;
  const proto = Object.getPrototypeOf(headers);
  if (proto !== Object.prototype && proto !== null) return false;
  for (const name in headers)
    if (typeof (headers as Record<string, unknown>)[name] !== "string") return false;
  return true;
}

export class LightResponse {
  /** Node's Response class, for ClipShare's module evaluated again in the same process. */
  static readonly [NODE_CLASS] = nodeClassReader("Response");

  #plain: PlainAnswer | undefined;
  #args: [body: unknown, init: unknown] | undefined;
  #real: Response | undefined;

  constructor(body?: Body, init?: ResponseInit) {
    let source: unknown = init ?? undefined;
    if (init != null && #plain in init) {
      // Hono answers HEAD with `new Response(null, answerToGet)`.
      const other = init as unknown as LightResponse;
      if (other.#plain) {
        const { status, statusText, headers } = other.#plain;
        source = { status, statusText, headers };
      } else source = other.toFetchResponse();
    }
    const plainInit = source as { status?: number; statusText?: string; headers?: unknown } | undefined;
    if (isPlainBody(body) && (plainInit === undefined || isPlainHeaders(plainInit.headers))) {
      const status = plainInit?.status ?? 200;
      // The checks Node's Response makes when it is constructed, so a bad answer fails where it is made.
      if (!Number.isInteger(status) || status < 200 || status > 599) {
        throw new RangeError(`Response status ${status} is outside 200-599`);
      }
      if (body != null && NULL_BODY_STATUS.has(status)) {
        throw new TypeError(`A ${status} answer cannot have a body`);
      }
      this.#plain = {
        status,
        statusText: plainInit?.statusText ?? "",
        headers: plainInit?.headers as PlainHeaders | undefined,
        body: body ?? null,
      };
    }
    this.#args = [body, source];
  }

  /** Node's Response for this answer, built on first use. */
  toFetchResponse(): Response {
    if (!this.#real) {
      let [body, init] = this.#args ?? [null, undefined];
      const plain = this.#plain;
      if (plain && !hasHeader(plain.headers, "content-type")) {
        init = { ...(init as object), headers: { ...plain.headers, "content-type": DEFAULT_CONTENT_TYPE } };
      }
      this.#real = new (fetchClasses().Response)(body as Body, init as ResponseInit | undefined);
      this.#plain = undefined;
    }
    return this.#real;
  }

  /** `res` itself, or for ClipShare's own, Node's Response built from it. */
  static fetchResponseOf(res: Response): Response {
    return #plain in res ? (res as unknown as LightResponse).toFetchResponse() : res;
  }

  /** What to write for `res` when no Fetch object was built for it. */
  static plainOf(res: object): PlainAnswer | undefined {
    return #plain in res ? res.#plain : undefined;
  }

  /**
   * The string or bytes `res` was made with, while its Fetch body has not been
   * touched: they can be written as they are, with a Content-Length.
   */
  static untouchedBytes(res: object): string | Uint8Array | undefined {
    if (!(#plain in res) || !res.#real || !res.#args) return undefined;
    const body = res.#args[0];
    if (typeof body !== "string" && !(body instanceof Uint8Array)) return undefined;
    const real = res.#real;
    return real.bodyUsed || real.body?.locked ? undefined : body;
  }

  static [Symbol.hasInstance](value: unknown): boolean {
    if (typeof value !== "object" || value === null) return false;
    // Anything else may be Node's own (from fetch(), say): that needs its class.
    return #plain in value || value instanceof fetchClasses().Response;
  }

  static json(data: unknown, init?: ResponseInit): Response {
    return fetchClasses().Response.json(data, init);
  }

  static error(): Response {
    return fetchClasses().Response.error();
  }

  static redirect(url: string | URL, status?: Parameters<typeof Response.redirect>[1]): Response {
    return fetchClasses().Response.redirect(url, status as Parameters<typeof Response.redirect>[1]);
  }

  get [Symbol.toStringTag]() {
    return "Response";
  }

  get status(): number {
    return this.#plain ? this.#plain.status : this.toFetchResponse().status;
  }

  get statusText(): string {
    return this.#plain ? this.#plain.statusText : this.toFetchResponse().statusText;
  }

  get ok(): boolean {
    const status = this.status;
    return status >= 200 && status < 300;
  }

  get headers(): Headers {
    return this.toFetchResponse().headers;
  }

  get body(): ReadableStream<Uint8Array> | null {
    return this.toFetchResponse().body;
  }

  get bodyUsed(): boolean {
    return this.#real ? this.#real.bodyUsed : false;
  }

  get redirected(): boolean {
    return this.#real ? this.#real.redirected : false;
  }

  get type(): Response["type"] {
    return this.#real ? this.#real.type : "default";
  }

  get url(): string {
    return this.#real ? this.#real.url : "";
  }

  arrayBuffer(): Promise<ArrayBuffer> {
    return this.toFetchResponse().arrayBuffer();
  }

  blob(): Promise<Blob> {
    return this.toFetchResponse().blob();
  }

  formData(): Promise<FormData> {
    return this.toFetchResponse().formData();
  }

  json(): Promise<unknown> {
    return this.toFetchResponse().json();
  }

  text(): Promise<string> {
    return this.toFetchResponse().text();
  }

  clone(): Response {
    return this.toFetchResponse().clone();
  }
}

/**
 * Returned instead of an answer when the request's response was already
 * written to Node's response (node-body.ts): the server then writes nothing.
 */
export const RESPONSE_ALREADY_SENT = new LightResponse(null) as unknown as Response;

let installed = false;

/** Makes `LightResponse` the global `Response` (once per process). */
export function installLightResponse(): void {
  if (installed) return;
  installed = true;
  Object.defineProperty(globalThis, "Response", {
    value: LightResponse,
    writable: true,
    enumerable: false,
    configurable: true,
  });
}
