/**
 * Named hosts an administrator lets ClipShare reach although they resolve to
 * private addresses (an intranet file server, a self-hosted S3 on the LAN).
 * Entries are `host` (any port) or `host:port`; hosts are compared in the
 * normalized form URLs use, so `0x7f000001` and `127.0.0.1` are one entry.
 */

export interface HostEntry {
  host: string;
  port: number | null;
}

/** The host as WHATWG URL parsing normalizes it: lower case, IPv4 in dotted form, IPv6 bracketed. */
export function normalizeHost(host: string): string {
  return new URL(`http://${host}/`).hostname.replace(/\.$/, "");
}

/** Parses `host` or `host:port` (IPv6 as `[::1]:8080`); throws with a readable message. */
export function parseHostEntry(raw: string): HostEntry {
  const m = /^(\[[0-9a-f:.]+\]|[^:[\]/\s]+)(?::(\d{1,5}))?$/i.exec(raw.trim());
  if (!m) throw new Error(`"${raw}" is not a host or host:port`);
  const port = m[2] === undefined ? null : Number(m[2]);
  if (port !== null && (port < 1 || port > 65535)) throw new Error(`"${raw}" has an invalid port`);
  let host: string;
  try {
    host = normalizeHost(m[1]!);
  } catch {
    throw new Error(`"${raw}" is not a valid host name`);
  }
  return { host, port };
}

/** Comma-separated entries; empty items are ignored. */
export function parseHostList(raw: string | undefined): HostEntry[] {
  return (raw ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)
    .map(parseHostEntry);
}

/** The port a URL connects to, defaults included. */
export function effectivePort(url: URL): number {
  if (url.port) return Number(url.port);
  return url.protocol === "https:" ? 443 : 80;
}

export class HostAllowList {
  constructor(private readonly entries: readonly HostEntry[]) {}

  allows(url: URL): boolean {
    const host = url.hostname.replace(/\.$/, "").toLowerCase();
    const port = effectivePort(url);
    return this.entries.some((e) => e.host === host && (e.port === null || e.port === port));
  }
}
