/**
 * HMAC-SHA256 signatures for URLs that work without an Authorization header,
 * each kind under its own key derived from SECRET_KEY, compared in constant
 * time:
 * - proxy: `sign=<mac>:<expires>` on /api/p/<path> (0.7.3 form; expires in unix
 *   seconds, 0 = never), valid while the mount has web proxy on;
 * - link: `sign=l:<mac>:<expires>` on the same route, what fs/file-link and
 *   fs/get hand out for storage that cannot presign (LOCAL); always expiring;
 * - visitor: `sign=v:<mac>:<expires>`, the same for visitors without
 *   credentials (public browsing), on every storage: the download then goes
 *   through the server, which checks the public part again, counts and logs it;
 * (signed upload URLs are the upload domain's: domain/uploads/upload-signer.ts);
 * - zip: a plain GET link to a ZIP of given paths on behalf of a principal.
 */
import { constantTimeEqual, deriveKey, hmacSha256 } from "../../lib/crypto";

export type SignatureCheck = "ok" | "signature_expired" | "invalid_signature" | "malformed_signature";

const LINK_PREFIX = "l:";
const VISITOR_PREFIX = "v:";
type KeyKind = "proxy" | "link" | "visitor" | "zip";

export class LinkSigner {
  private readonly keys: Record<KeyKind, Buffer>;

  constructor(secret: Buffer) {
    this.keys = {
      proxy: deriveKey(secret, "fs-proxy-sign"),
      link: deriveKey(secret, "fs-file-link"),
      visitor: deriveKey(secret, "fs-visitor-link"),
      zip: deriveKey(secret, "fs-zip-link"),
    };
  }

  /** `expiresAt` in unix seconds; 0 never expires. */
  proxySign(path: string, expiresAt: number): string {
    return `${this.mac("proxy", `${path}:${expiresAt}`)}:${expiresAt}`;
  }

  linkSign(path: string, expiresAt: number): string {
    return `${LINK_PREFIX}${this.mac("link", `${path}:${expiresAt}`)}:${expiresAt}`;
  }

  isLinkSignature(sign: string): boolean {
    return sign.startsWith(LINK_PREFIX);
  }

  visitorLinkSign(path: string, expiresAt: number): string {
    return `${VISITOR_PREFIX}${this.mac("visitor", `${path}:${expiresAt}`)}:${expiresAt}`;
  }

  isVisitorSignature(sign: string): boolean {
    return sign.startsWith(VISITOR_PREFIX);
  }

  verifyVisitorLink(path: string, sign: string): SignatureCheck {
    if (!sign.startsWith(VISITOR_PREFIX)) return "malformed_signature";
    return this.verify("visitor", path, sign.slice(VISITOR_PREFIX.length), false);
  }

  verifyProxy(path: string, sign: string): SignatureCheck {
    return this.verify("proxy", path, sign, true);
  }

  verifyLink(path: string, sign: string): SignatureCheck {
    if (!sign.startsWith(LINK_PREFIX)) return "malformed_signature";
    return this.verify("link", path, sign.slice(LINK_PREFIX.length), false);
  }

  /** `opened`: password-protected folders below the paths the link may enter (none: links as before). */
  zipSign(
    by: string,
    expiresAt: number,
    paths: string[],
    name: string,
    opened: readonly string[] = [],
  ): string {
    const signed = opened.length === 0 ? [by, expiresAt, paths, name] : [by, expiresAt, paths, name, opened];
    return this.mac("zip", JSON.stringify(signed));
  }

  verifyZip(
    by: string,
    expiresAt: number,
    paths: string[],
    name: string,
    signature: string,
    opened: readonly string[] = [],
  ): SignatureCheck {
    if (!constantTimeEqual(signature, this.zipSign(by, expiresAt, paths, name, opened)))
      return "invalid_signature";
    return expiresAt * 1000 <= Date.now() ? "signature_expired" : "ok";
  }

  private verify(
    kind: "proxy" | "link" | "visitor",
    path: string,
    sign: string,
    allowNever: boolean,
  ): SignatureCheck {
    const colon = sign.lastIndexOf(":");
    if (colon <= 0) return "malformed_signature";
    const mac = sign.slice(0, colon);
    const expiresText = sign.slice(colon + 1);
    if (!/^\d{1,12}$/.test(expiresText)) return "malformed_signature";
    const expiresAt = Number(expiresText);
    if (!constantTimeEqual(mac, this.mac(kind, `${path}:${expiresAt}`))) return "invalid_signature";
    if (expiresAt === 0) return allowNever ? "ok" : "invalid_signature";
    return expiresAt * 1000 <= Date.now() ? "signature_expired" : "ok";
  }

  private mac(kind: KeyKind, input: string): string {
    return hmacSha256(this.keys[kind], input).toString("base64url");
  }
}
