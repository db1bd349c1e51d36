/**
 * Where S3 endpoints may point. An admin-entered endpoint is a user-given URL
 * like any other: by default it must resolve to public addresses only, so a
 * storage config cannot be turned into a probe of loopback services, the
 * cloud metadata address or the LAN. Self-hosted S3 on a private network is
 * normal, so STORAGE_ENDPOINT_ALLOW names the hosts that may be private.
 * The check runs when a config is saved and again on every connection (the
 * driver's lookup), so a name that later resolves elsewhere is still refused.
 */
import type { LookupFunction } from "node:net";
import { AppError, isAppError } from "../../errors";
import { refusedAddressReason } from "../../lib/net/address-policy";
import type { HostAllowList } from "../../lib/net/host-allow-list";
import { SafeFetcher } from "../../lib/net/safe-fetch";
import {
  bareHost,
  parseTargetUrl,
  pinnedLookup,
  type Resolver,
  systemResolver,
} from "../../lib/net/url-guard";
import { normalizeEndpoint } from "../../storage/endpoint";

const endpointNotAllowed = (host: string, reason: string) =>
  new AppError(
    400,
    "storage_endpoint_not_allowed",
    `The storage endpoint ${host} is a ${reason} address; to use storage on a private network, add the host to STORAGE_ENDPOINT_ALLOW`,
    { host, reason },
  );

export class StorageEndpointPolicy {
  /** For requests to presigned URLs made by the server itself (the config test). */
  readonly fetcher: SafeFetcher;

  constructor(
    private readonly allow: HostAllowList,
    private readonly resolve: Resolver = systemResolver,
  ) {
    this.fetcher = new SafeFetcher({ allow, resolve });
  }

  /** The checks that need no network; returns the lookup connections to this endpoint must use. */
  lookupFor(endpoint: string | null): LookupFunction | undefined {
    const normalized = normalizeEndpoint(endpoint ?? "");
    if (!normalized) return undefined; // AWS itself
    try {
      const { allowListed } = parseTargetUrl(normalized, this.allow);
      return pinnedLookup(!allowListed, this.resolve);
    } catch (e) {
      const details = isAppError(e)
        ? (e.details as { host?: string; reason?: string } | undefined)
        : undefined;
      if (details?.reason) throw endpointNotAllowed(details.host ?? "", details.reason);
      throw e;
    }
  }

  /** On save: also resolve the name now, so a private endpoint is refused with a clear message at once. */
  async checkOnSave(endpoint: string | null): Promise<void> {
    this.lookupFor(endpoint);
    const normalized = normalizeEndpoint(endpoint ?? "");
    if (!normalized) return;
    const url = new URL(normalized);
    if (this.allow.allows(url)) return;
    // An unresolvable name is not refused here: DNS may be down for a moment; connections check again.
    const addresses = await this.resolve(bareHost(url.hostname)).catch(() => []);
    for (const a of addresses) {
      const reason = refusedAddressReason(a.address);
      if (reason) throw endpointNotAllowed(url.hostname, reason);
    }
  }
}
