/**
 * Writing an app's answer to Node's response. Headers already set on Node's
 * response (before the handler ran) are merged under the answer's own by
 * writeHead. A plain answer is written with writeHead/end; a streamed body is
 * copied chunk by chunk, waiting for the socket to drain, and given up when the
 * client goes away; a body that fails part-way destroys the socket, so the
 * client sees a cut response rather than a complete-looking one.
 */
import type { ServerResponse } from "node:http";
import { DEFAULT_CONTENT_TYPE, hasHeader, LightResponse, RESPONSE_ALREADY_SENT } from "./response";

/** Node's form of Fetch headers: Set-Cookie as a list, one header line each. */
export function headersRecord(headers: Headers): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of headers) if (name !== "set-cookie") out[name] = value;
  const cookies = headers.getSetCookie();
  if (cookies.length > 0) out["set-cookie"] = cookies;
  return out;
}

/**
 * Writes an answer whose body is in memory. `headers` is not modified (it may
 * be the app's own object): the Content-Type and Content-Length it lacks go on
 * Node's response, under it.
 */
function writeWhole(
  outgoing: ServerResponse,
  status: number,
  statusText: string,
  headers: Record<string, string | string[]> | undefined,
  body: string | Uint8Array | null,
): void {
  if (!hasHeader(headers, "content-type")) outgoing.setHeader("Content-Type", DEFAULT_CONTENT_TYPE);
  if (body !== null && !hasHeader(headers, "content-length")) {
    outgoing.setHeader(
      "Content-Length",
      typeof body === "string" ? Buffer.byteLength(body) : body.byteLength,
    );
  }
  if (statusText) outgoing.writeHead(status, statusText, headers);
  else outgoing.writeHead(status, headers);
  if (body === null) outgoing.end();
  else outgoing.end(body);
}

/** Resolves once `outgoing` can take more, or has closed. */
const drained = (outgoing: ServerResponse) =>
  new Promise<void>((resolve) => {
    const done = () => {
      outgoing.off("drain", done);
      outgoing.off("close", done);
      resolve();
    };
    outgoing.on("drain", done);
    outgoing.on("close", done);
  });

async function writeStream(outgoing: ServerResponse, body: ReadableStream<Uint8Array>): Promise<void> {
  const reader = body.getReader();
  // A client that goes away cancels the body, which closes its source.
  const cancel = () => {
    if (!outgoing.writableFinished) reader.cancel().catch(() => {});
  };
  outgoing.once("close", cancel);
  try {
    // The client sees the status and headers now, whenever the first bytes come.
    outgoing.flushHeaders();
    for (;;) {
      const { done, value } = await reader.read();
      if (done || outgoing.destroyed) break;
      if (!outgoing.write(value)) await drained(outgoing);
    }
    if (!outgoing.destroyed) outgoing.end();
  } catch (e) {
    outgoing.destroy(e instanceof Error ? e : new Error(String(e)));
    // Logged as the previous Node server did: a body that fails part-way is a server fault.
    console.error(e);
  } finally {
    outgoing.off("close", cancel);
  }
}

/** Writes `res` to `outgoing`; the promise (for a streamed body) settles when the body is sent or given up. */
export function writeAnswer(res: Response, outgoing: ServerResponse): void | Promise<void> {
  if (res === RESPONSE_ALREADY_SENT) return;
  const plain = LightResponse.plainOf(res);
  if (plain) return writeWhole(outgoing, plain.status, plain.statusText, plain.headers, plain.body);
  const real = LightResponse.fetchResponseOf(res);
  const headers = headersRecord(real.headers);
  const bytes = LightResponse.untouchedBytes(res);
  if (bytes !== undefined || !real.body) {
    return writeWhole(outgoing, real.status, real.statusText, headers, bytes ?? null);
  }
  if (!("content-type" in headers)) headers["content-type"] = DEFAULT_CONTENT_TYPE;
  if (real.statusText) outgoing.writeHead(real.status, real.statusText, headers);
  else outgoing.writeHead(real.status, headers);
  return writeStream(outgoing, real.body);
}
