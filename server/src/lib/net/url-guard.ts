/**
 * The one gate every outgoing connection to a user-given address passes:
 * the URL must be http(s) without credentials, and the address it connects to
 * must be public (address-policy.ts) unless the host is on the allow-list.
 * Names are resolved once, inside the connection's `lookup`, and the socket
 * connects to exactly the address that was checked, so a DNS answer cannot
 * change between the check and the connection (DNS rebinding).
 */
import { lookup as dnsLookup } from "node:dns/promises";
import { isIP, type LookupFunction } from "node:net";
import { AppError, badRequest } from "../../errors";
import { refusedAddressReason } from "./address-policy";
import type { HostAllowList } from "./host-allow-list";

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Name resolution, replaceable in tests; the default asks the system resolver for every address. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

export const urlNotAllowed = (host: string, reason: string) =>
  new AppError(
    400,
    "url_not_allowed",
    `Cannot access URL: ${host} is a ${reason} address; only public addresses may be fetched`,
    { host, reason },
  );

/** Parses and checks the parts of a URL that need no network: scheme, credentials, literal addresses. */
export function parseTargetUrl(raw: string, allow: HostAllowList): { url: URL; allowListed: boolean } {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw badRequest("Invalid URL format", "invalid_url");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw badRequest("Only HTTP/HTTPS URLs are supported", "invalid_url");
  if (url.username || url.password)
    throw badRequest("URLs with a user name or password are not supported", "invalid_url");
  if (!url.hostname) throw badRequest("Invalid URL format", "invalid_url");
  const allowListed = allow.allows(url);
  if (!allowListed) {
    const literal = bareHost(url.hostname);
    if (isIP(literal)) {
      const reason = refusedAddressReason(literal);
      if (reason) throw urlNotAllowed(url.hostname, reason);
    }
  }
  return { url, allowListed };
}

/** `[::1]` → `::1`; names unchanged. */
export function bareHost(hostname: string): string {
  return hostname.replace(/^\[|\]$/g, "");
}

/**
 * A `lookup` for node:net/http/https that resolves the name once. With
 * `guard` it refuses the connection when any of the addresses is not public
 * (one private answer is enough: a name must not be able to choose per
 * attempt); without it (allow-listed hosts) it only pins the answer.
 */
export function pinnedLookup(guard: boolean, resolve: Resolver = systemResolver): LookupFunction {
  return (hostname, options, callback) => {
    const opts = (typeof options === "object" && options ? options : {}) as {
      all?: boolean;
      family?: number;
    };
    resolve(hostname)
      .then((all) => {
        const addresses = opts.family ? all.filter((a) => a.family === opts.family) : all;
        if (addresses.length === 0) {
          throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
        }
        for (const a of guard ? addresses : []) {
          const reason = refusedAddressReason(a.address);
          if (reason) throw urlNotAllowed(hostname, reason);
        }
        if (opts.all) (callback as (e: null, a: ResolvedAddress[]) => void)(null, addresses);
        else callback(null, addresses[0]!.address, addresses[0]!.family);
      })
      .catch((e: Error) => (callback as (e: Error) => void)(e));
  };
}
