/**
 * The request object the Node server hands to the app: Hono routes on its
 * `url` and `method`, which cost no Fetch object. Its `headers` are a Fetch
 * Headers object built on first read (ClipShare's hot paths read headers from
 * Node instead, node-exchange.ts); its `signal` aborts when the client goes
 * away before the answer is sent; its body and everything else come from a
 * real Fetch Request, built on first use with those same headers and signal.
 */
import type { IncomingMessage } from "node:http";
import { Readable } from "node:stream";
import type { TLSSocket } from "node:tls";
import { fetchClasses } from "./fetch-classes";

/** A request line or Host header the server cannot turn into a URL: answered 400. */
export class BadRequestTarget extends Error {}

/**
 * Characters that would move a Host header's end into the path or query when
 * it is put in front of the request target.
 */
const HOST_BREAKERS = /[/?#@\\\s]/;

/** The request's absolute URL, normalized by the URL parser (dot segments resolved). */
function requestUrl(incoming: IncomingMessage): string {
  const target = incoming.url ?? "";
  // A URL parser reads `\` as `/` in an http URL: a path the router and the file system would see differently.
  const backslash = target.indexOf("\\");
  if (backslash !== -1) {
    const query = target.indexOf("?");
    if (query === -1 || backslash < query) throw new BadRequestTarget("Backslash in request path");
  }
  try {
    if (target.startsWith("http://") || target.startsWith("https://")) return new URL(target).href;
    const host = incoming.headers.host;
    if (!host) throw new BadRequestTarget("Missing Host header");
    if (HOST_BREAKERS.test(host)) throw new BadRequestTarget("Invalid Host header");
    if (target[0] !== "/") throw new BadRequestTarget("Request target is not a path");
    const scheme = (incoming.socket as TLSSocket | null)?.encrypted ? "https" : "http";
    return new URL(`${scheme}://${host}${target}`).href;
  } catch (e) {
    throw e instanceof BadRequestTarget ? e : new BadRequestTarget("Invalid request URL", { cause: e });
  }
}

/** Methods a Fetch Request refuses; only their body-less form is ever built. */
const FETCH_FORBIDDEN_METHODS = new Set(["CONNECT", "TRACE", "TRACK"]);

/**
 * The request body as a Web stream that starts reading Node's stream on the
 * first pull, not when the Request is built: a body nobody reads is left for
 * the server to drain.
 */
function lazyBody(incoming: IncomingMessage): ReadableStream<Uint8Array> {
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        reader ??= (Readable.toWeb(incoming) as ReadableStream<Uint8Array>).getReader();
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      },
      cancel(reason) {
        if (reader) return reader.cancel(reason);
        incoming.destroy(reason instanceof Error ? reason : undefined);
      },
    },
    { highWaterMark: 0 },
  );
}

export class NodeRequest {
  readonly url: string;
  readonly method: string;
  readonly #incoming: IncomingMessage;
  #headers: Headers | undefined;
  #abort: AbortController | undefined;
  #request: Request | undefined;

  /** Throws BadRequestTarget for a request line or Host header that makes no URL. */
  constructor(incoming: IncomingMessage) {
    this.#incoming = incoming;
    this.url = requestUrl(incoming);
    this.method = incoming.method ?? "GET";
  }

  get headers(): Headers {
    if (!this.#headers) {
      const raw = this.#incoming.rawHeaders;
      const pairs: [string, string][] = [];
      for (let i = 0; i < raw.length; i += 2) pairs.push([raw[i]!, raw[i + 1]!]);
      this.#headers = new (fetchClasses().Headers)(pairs);
    }
    return this.#headers;
  }

  get signal(): AbortSignal {
    this.#abort ??= new AbortController();
    return this.#abort.signal;
  }

  /** Aborts `signal`, if anyone took it. */
  abort(reason: string): void {
    this.#abort?.abort(reason);
  }

  /** The real Fetch Request, built on first use. */
  toFetchRequest(): Request {
    if (!this.#request) {
      const method = FETCH_FORBIDDEN_METHODS.has(this.method) ? "GET" : this.method;
      const init: RequestInit & { duplex?: "half" } = { method, headers: this.headers, signal: this.signal };
      if (method !== "GET" && method !== "HEAD") {
        init.body = lazyBody(this.#incoming);
        init.duplex = "half";
      }
      this.#request = new (fetchClasses().Request)(this.url, init);
    }
    return this.#request;
  }

  get [Symbol.toStringTag]() {
    return "Request";
  }

  get body(): ReadableStream<Uint8Array> | null {
    return this.toFetchRequest().body;
  }

  get bodyUsed(): boolean {
    return this.#request ? this.#request.bodyUsed : false;
  }

  arrayBuffer(): Promise<ArrayBuffer> {
    return this.toFetchRequest().arrayBuffer();
  }

  blob(): Promise<Blob> {
    return this.toFetchRequest().blob();
  }

  formData(): Promise<FormData> {
    return this.toFetchRequest().formData();
  }

  json(): Promise<unknown> {
    return this.toFetchRequest().json();
  }

  text(): Promise<string> {
    return this.toFetchRequest().text();
  }

  clone(): Request {
    return this.toFetchRequest().clone();
  }
}

// The rest of a Request's properties (Hono reads them when it clones a request) come from the real one.
for (const name of [
  "cache",
  "credentials",
  "destination",
  "integrity",
  "keepalive",
  "mode",
  "redirect",
  "referrer",
  "referrerPolicy",
  "duplex",
] as const) {
  Object.defineProperty(NodeRequest.prototype, name, {
    get(this: NodeRequest) {
      return (this.toFetchRequest() as unknown as Record<string, unknown>)[name];
    },
  });
}
