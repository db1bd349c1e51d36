/**
 * Which IP addresses a user-given URL may reach. Anything that is not an
 * ordinary public unicast address is refused: loopback, private, link-local
 * (cloud metadata lives there), CGNAT, multicast, broadcast, unspecified and
 * the documentation and benchmark ranges, for IPv4 and IPv6. IPv6 forms that
 * carry an IPv4 address (mapped, compatible, NAT64, 6to4) are judged by the
 * IPv4 address inside, so `::ffff:127.0.0.1` is loopback like `127.0.0.1`.
 */
import { isIPv4, isIPv6 } from "node:net";

type Range = readonly [prefix: string, bits: number, reason: string];

const IPV4_BLOCKED: readonly Range[] = [
  ["0.0.0.0", 8, "unspecified"],
  ["10.0.0.0", 8, "private"],
  ["100.64.0.0", 10, "shared (CGNAT)"],
  ["127.0.0.0", 8, "loopback"],
  ["169.254.0.0", 16, "link-local"],
  ["172.16.0.0", 12, "private"],
  ["192.0.0.0", 24, "IETF protocol"],
  ["192.0.2.0", 24, "documentation"],
  ["192.88.99.0", 24, "6to4 relay"],
  ["192.168.0.0", 16, "private"],
  ["198.18.0.0", 15, "benchmarking"],
  ["198.51.100.0", 24, "documentation"],
  ["203.0.113.0", 24, "documentation"],
  ["224.0.0.0", 4, "multicast"],
  ["240.0.0.0", 4, "reserved or broadcast"],
];

/** IPv6 ranges refused outright (those embedding IPv4 are handled before these). */
const IPV6_BLOCKED: readonly Range[] = [
  ["::", 128, "unspecified"],
  ["::1", 128, "loopback"],
  // Stateless translation (SIIT) addresses reach whatever IPv4 host a local translator maps them to.
  ["::ffff:0:0:0", 96, "IPv4-translated"],
  ["64:ff9b:1::", 48, "local NAT64"],
  ["100::", 64, "discard-only"],
  ["2001::", 32, "Teredo"],
  ["2001:2::", 48, "benchmarking"],
  ["2001:10::", 28, "ORCHID"],
  ["2001:20::", 28, "ORCHIDv2"],
  ["2001:db8::", 32, "documentation"],
  ["3fff::", 20, "documentation"],
  ["fc00::", 7, "unique local (private)"],
  ["fe80::", 10, "link-local"],
  ["fec0::", 10, "site-local"],
  ["ff00::", 8, "multicast"],
];

/** IPv6 prefixes whose low 32 bits (or, for 6to4, bits 16-47) are an IPv4 address. */
const IPV4_EMBEDDING: readonly (readonly [prefix: string, bits: number, offset: number])[] = [
  ["::ffff:0:0", 96, 12], // IPv4-mapped
  ["::", 96, 12], // IPv4-compatible (deprecated)
  ["64:ff9b::", 96, 12], // NAT64 well-known prefix
  ["2002::", 16, 2], // 6to4
];

function ipv4Bytes(address: string): Uint8Array {
  return Uint8Array.from(address.split(".").map(Number));
}

/** 16 bytes of an IPv6 address, including forms with `::` and a dotted IPv4 tail. */
export function ipv6Bytes(address: string): Uint8Array {
  let text = address.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (tail) {
    const b = ipv4Bytes(tail[1]!);
    text = `${text.slice(0, -tail[1]!.length)}${((b[0]! << 8) | b[1]!).toString(16)}:${((b[2]! << 8) | b[3]!).toString(16)}`;
  }
  const [head, rest] = text.split("::") as [string, string | undefined];
  const left = head ? head.split(":") : [];
  const right = rest !== undefined && rest !== "" ? rest.split(":") : [];
  const groups =
    rest === undefined ? left : [...left, ...Array(8 - left.length - right.length).fill("0"), ...right];
  const bytes = new Uint8Array(16);
  groups.forEach((g, i) => {
    const v = Number.parseInt(g, 16);
    bytes[i * 2] = v >> 8;
    bytes[i * 2 + 1] = v & 0xff;
  });
  return bytes;
}

function inPrefix(bytes: Uint8Array, prefix: Uint8Array, bits: number): boolean {
  for (let i = 0; i < bits; i++) {
    const mask = 0x80 >> (i % 8);
    if ((bytes[i >> 3]! & mask) !== (prefix[i >> 3]! & mask)) return false;
  }
  return true;
}

const v4Ranges = IPV4_BLOCKED.map(([p, bits, reason]) => ({ prefix: ipv4Bytes(p), bits, reason }));
const v6Ranges = IPV6_BLOCKED.map(([p, bits, reason]) => ({ prefix: ipv6Bytes(p), bits, reason }));
const v6Embedding = IPV4_EMBEDDING.map(([p, bits, offset]) => ({ prefix: ipv6Bytes(p), bits, offset }));

/**
 * Why `address` (a literal IPv4 or IPv6 address) must not be reached, or null
 * when it is an ordinary public address. Not an IP at all counts as refused.
 */
export function refusedAddressReason(address: string): string | null {
  const bare = address.replace(/^\[|\]$/g, "");
  if (isIPv4(bare)) {
    const bytes = ipv4Bytes(bare);
    return v4Ranges.find((r) => inPrefix(bytes, r.prefix, r.bits))?.reason ?? null;
  }
  if (!isIPv6(bare.replace(/%.*$/, ""))) return "not an IP address";
  const bytes = ipv6Bytes(bare);
  const isZeroOrOne = bytes.slice(0, 15).every((b) => b === 0) && bytes[15]! <= 1;
  if (!isZeroOrOne) {
    for (const e of v6Embedding) {
      if (inPrefix(bytes, e.prefix, e.bits)) {
        const inner = Array.from(bytes.slice(e.offset, e.offset + 4)).join(".");
        const reason = refusedAddressReason(inner);
        return reason ? `${reason} (embedded IPv4 ${inner})` : null;
      }
    }
  }
  return v6Ranges.find((r) => inPrefix(bytes, r.prefix, r.bits))?.reason ?? null;
}
