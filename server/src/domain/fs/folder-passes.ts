/**
 * Path-password passes: after a correct folder password the caller gets a
 * token that opens that folder (and what lies below it, unless a folder
 * further down has a password of its own) for one hour. Clients send it back
 * in `X-Folder-Token` (several separated by commas). Format
 * <expires epoch s>.<base64url HMAC>; the MAC covers the folder's path and
 * settings id, a fingerprint of its password hash (a new password revokes
 * every pass) and who asked (an API key's id, or "visitor"), so a pass is of
 * no use to anybody else.
 */
import { type Principal, principalId } from "../../auth/principal";
import type { FolderSettingsRow } from "../../db/schema";
import { constantTimeEqual, deriveKey, hmacSha256, sha256Hex } from "../../lib/crypto";

export const FOLDER_PASS_TTL_SECONDS = 3600;
export const FOLDER_TOKEN_HEADER = "X-Folder-Token";

export class FolderPasses {
  private readonly key: Buffer;
  constructor(secret: Buffer) {
    this.key = deriveKey(secret, "folder-pass");
  }

  issue(lock: FolderSettingsRow, principal: Principal): { token: string; expiresAt: number } {
    const expires = Math.floor(Date.now() / 1000) + FOLDER_PASS_TTL_SECONDS;
    return { token: `${expires}.${this.mac(lock, principal, expires)}`, expiresAt: expires * 1000 };
  }

  /** One of `tokens` opens `lock` for `principal`. */
  admits(lock: FolderSettingsRow, principal: Principal, tokens: readonly string[]): boolean {
    const now = Date.now() / 1000;
    return tokens.some((token) => {
      const [expText, mac] = token.split(".");
      const expires = Number(expText);
      if (!mac || !Number.isInteger(expires) || expires < now) return false;
      return constantTimeEqual(mac, this.mac(lock, principal, expires));
    });
  }

  private mac(lock: FolderSettingsRow, principal: Principal, expires: number): string {
    const who = principalId(principal);
    const fingerprint = sha256Hex(lock.password_hash ?? "").slice(0, 16);
    return hmacSha256(this.key, `${lock.id}:${lock.path}:${fingerprint}:${who}:${expires}`).toString(
      "base64url",
    );
  }
}

/** The passes a request carries. */
export function folderTokensOf(header: string | undefined | null): string[] {
  if (!header) return [];
  return header
    .split(",")
    .map((t) => t.trim())
    .filter((t) => t !== "")
    .slice(0, 16);
}
