/**
 * Small crypto helpers shared by auth, signed URLs and credential storage.
 * All secret comparisons go through constantTimeEqual.
 */
import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  hkdfSync,
  randomBytes,
  randomInt,
  timingSafeEqual,
} from "node:crypto";

const BASE62 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** Uniformly random string over [A-Za-z0-9] (no modulo bias). */
export function randomBase62(length: number): string {
  let out = "";
  for (let i = 0; i < length; i++) out += BASE62[randomInt(BASE62.length)];
  return out;
}

export const randomToken = (bytes = 32) => randomBytes(bytes).toString("base64url");

export const sha256Hex = (input: string | Buffer) => createHash("sha256").update(input).digest("hex");

export const hmacSha256 = (key: Buffer, input: string) => createHmac("sha256", key).update(input).digest();

export function constantTimeEqual(a: string | Buffer, b: string | Buffer): boolean {
  const left = typeof a === "string" ? Buffer.from(a) : a;
  const right = typeof b === "string" ? Buffer.from(b) : b;
  if (left.length !== right.length) {
    // Still spend the comparison so the timing does not reveal the length check.
    timingSafeEqual(left, left);
    return false;
  }
  return timingSafeEqual(left, right);
}

/** Derive independent sub-keys from the one server secret, one per purpose. */
export function deriveKey(secret: Buffer, purpose: string, length = 32): Buffer {
  return Buffer.from(hkdfSync("sha256", secret, Buffer.alloc(0), `clipshare:${purpose}`, length));
}

/** AES-256-GCM for secrets stored at rest (storage credentials). Format: v1.<iv>.<tag>.<ciphertext>, base64url. */
export class SecretBox {
  private readonly key: Buffer;
  constructor(secret: Buffer) {
    this.key = deriveKey(secret, "secret-box");
  }

  seal(plaintext: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", this.key, iv);
    const data = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
    const tag = cipher.getAuthTag();
    return ["v1", iv.toString("base64url"), tag.toString("base64url"), data.toString("base64url")].join(".");
  }

  open(sealed: string): string {
    const [version, iv, tag, data] = sealed.split(".");
    if (version !== "v1" || !iv || !tag || data === undefined) throw new Error("Unrecognized sealed secret");
    const decipher = createDecipheriv("aes-256-gcm", this.key, Buffer.from(iv, "base64url"));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(data, "base64url")), decipher.final()]).toString(
      "utf8",
    );
  }
}
