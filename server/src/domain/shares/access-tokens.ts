/**
 * Short-lived signed tokens handed out after a correct share password, so raw,
 * download and preview URLs work without putting the password in the URL.
 * Format: <expires epoch s>.<base64url HMAC>. The MAC covers the kind, the
 * share id and a fingerprint of its password hash, so changing the password
 * revokes every token issued for the old one.
 */
import { constantTimeEqual, deriveKey, hmacSha256, sha256Hex } from "../../lib/crypto";

export const SHARE_TOKEN_TTL_SECONDS = 3600;

export type ShareKind = "paste" | "file";
/** Every kind of share a visitor opens by slug under the one set of rules (share-access.ts). */
export type VisitKind = ShareKind | "collection";
/** What a token opens: a share, or a file request (domain/requests) behind the same password rule. */
export type TokenKind = VisitKind | "request";

export class ShareAccessTokens {
  private readonly key: Buffer;
  constructor(secret: Buffer) {
    this.key = deriveKey(secret, "share-access");
  }

  issue(kind: TokenKind, id: string, passwordHash: string, ttlSeconds = SHARE_TOKEN_TTL_SECONDS): string {
    const expires = Math.floor(Date.now() / 1000) + ttlSeconds;
    return `${expires}.${this.mac(kind, id, passwordHash, expires)}`;
  }

  verify(kind: TokenKind, id: string, passwordHash: string, token: string | undefined | null): boolean {
    if (!token) return false;
    const [expText, mac] = token.split(".");
    const expires = Number(expText);
    if (!mac || !Number.isInteger(expires) || expires < Date.now() / 1000) return false;
    return constantTimeEqual(mac, this.mac(kind, id, passwordHash, expires));
  }

  /** Seconds until a token (verified elsewhere) expires; 0 when unreadable or past. */
  secondsLeft(token: string): number {
    const expires = Number(token.split(".")[0]);
    return Number.isInteger(expires) ? Math.max(0, expires - Math.floor(Date.now() / 1000)) : 0;
  }

  private mac(kind: TokenKind, id: string, passwordHash: string, expires: number): string {
    return hmacSha256(this.key, `${kind}:${id}:${sha256Hex(passwordHash).slice(0, 16)}:${expires}`).toString(
      "base64url",
    );
  }
}
