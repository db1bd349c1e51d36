/**
 * The one signer of this server's upload URLs: the "presigned URL" of storage
 * that cannot presign (LOCAL), for a whole file and for each multipart part,
 * whatever the target (file share or mount path). One shape:
 *
 *   <origin>/api/uploads/<session>?expires=<unix s>&sig=<mac>
 *   <origin>/api/uploads/<session>?partNumber=<n>&isLastPart=<bool>&expires=<unix s>&sig=<mac>
 *
 * The signature is the credential (HMAC-SHA256 under a key derived from
 * SECRET_KEY, compared in constant time) and covers the session, the part and
 * the expiry. Clients read the URL as an opaque string; the 0.7.3 fields that
 * carry it (upload_url, presigned_urls, presignedUrls, expiresAt) are filled
 * at the edge from what this returns.
 */
import { constantTimeEqual, deriveKey, hmacSha256 } from "../../lib/crypto";

/** The route every signed upload URL names (registered once, in http/routes/uploads.ts). */
export const SIGNED_UPLOAD_PATH = "/api/uploads";

/** One part of a multipart upload; absent for a whole-file PUT. */
export interface SignedPart {
  partNumber: number;
  isLastPart: boolean;
}

export interface SignedUploadQuery {
  part: SignedPart | null;
  /** Unix seconds. */
  expires: number;
  sig: string;
}

export class UploadSigner {
  private readonly key: Buffer;

  constructor(secret: Buffer) {
    this.key = deriveKey(secret, "upload-url");
  }

  /** `expiresAt` is when the URL stops working (the session's end). */
  url(origin: string, sessionId: string, expiresAt: Date, part: SignedPart | null = null): string {
    const expires = Math.floor(expiresAt.getTime() / 1000);
    const partQuery = part ? `partNumber=${part.partNumber}&isLastPart=${part.isLastPart}&` : "";
    const sig = this.mac(sessionId, part, expires);
    return `${origin}${SIGNED_UPLOAD_PATH}/${sessionId}?${partQuery}expires=${expires}&sig=${sig}`;
  }

  /** True when the signature matches and the URL has not expired. */
  verify(sessionId: string, query: SignedUploadQuery, now = Date.now()): boolean {
    const expected = this.mac(sessionId, query.part, query.expires);
    return constantTimeEqual(query.sig, expected) && query.expires * 1000 > now;
  }

  private mac(sessionId: string, part: SignedPart | null, expires: number): string {
    const partText = part ? `${part.partNumber}:${part.isLastPart ? 1 : 0}` : "0";
    return hmacSha256(this.key, `${sessionId}:${partText}:${expires}`).toString("base64url");
  }
}
