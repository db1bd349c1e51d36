/**
 * openid-client's HTTP requests (discovery, keys, token, userinfo) through the SafeFetcher, so
 * a provider address passes the same rules as every user-given URL (a loopback or private
 * provider needs URL_FETCH_ALLOW) and an answer is read up to a bound.
 */
import { text } from "node:stream/consumers";
import type { CustomFetch } from "openid-client";
import type { SafeFetcher } from "../../lib/net/safe-fetch";

/** Discovery documents, key sets and token answers are small; anything larger is not a provider. */
const MAX_ANSWER_BYTES = 1024 * 1024;

async function bodyBytes(body: Parameters<CustomFetch>[1]["body"]): Promise<Buffer | undefined> {
  if (body === undefined || body === null) return undefined;
  if (typeof body === "string" || body instanceof URLSearchParams) return Buffer.from(body.toString());
  if (body instanceof ArrayBuffer || body instanceof Uint8Array) return Buffer.from(body as Uint8Array);
  return Buffer.from(await new Response(body).arrayBuffer());
}

export function safeOidcFetch(fetcher: SafeFetcher): CustomFetch {
  return async (url, options) => {
    const res = await fetcher.open(url, {
      method: options.method,
      headers: options.headers,
      body: await bodyBytes(options.body),
      followRedirects: false,
      signal: options.signal,
      maxBytes: MAX_ANSWER_BYTES,
      tooLarge: () => "The identity provider's answer is too large",
    });
    const headers = new Headers();
    for (const [name, value] of Object.entries(res.headers)) {
      if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
    }
    const content = await text(res.body);
    const empty = res.status === 204 || res.status === 304 || options.method === "HEAD";
    return new Response(empty ? null : content, { status: res.status, headers });
  };
}
