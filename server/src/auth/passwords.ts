/**
 * Password hashing with scrypt from node:crypto (no native dependency).
 * Stored form: scrypt$<N>$<r>$<p>$<salt b64url>$<hash b64url>, so parameters can
 * be raised later without breaking existing hashes.
 */
import { randomBytes, type ScryptOptions, scrypt } from "node:crypto";
import { constantTimeEqual } from "../lib/crypto";
import { type Attempt, RATE_LIMITS, type RateLimiter } from "./rate-limiter";

const PARAMS = { N: 16384, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;

function scryptAsync(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(
      password.normalize("NFKC"),
      salt,
      KEY_LENGTH,
      { ...options, maxmem: 64 * 1024 * 1024 },
      (err, key) => (err ? reject(err) : resolve(key)),
    );
  });
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scryptAsync(password, salt, PARAMS);
  return [
    "scrypt",
    PARAMS.N,
    PARAMS.r,
    PARAMS.p,
    salt.toString("base64url"),
    hash.toString("base64url"),
  ].join("$");
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split("$");
  if (scheme !== "scrypt" || !n || !r || !p || !salt || !hash) return false;
  const expected = Buffer.from(hash, "base64url");
  const actual = await scryptAsync(password, Buffer.from(salt, "base64url"), {
    N: Number(n),
    r: Number(r),
    p: Number(p),
  });
  return constantTimeEqual(actual, expected);
}

/**
 * A visitor's share password check (pastes, file shares): reserved against the
 * share-password limit per address and share before the hash is computed.
 */
export function checkSharePassword(
  limiter: RateLimiter,
  attempt: Attempt,
  password: string,
  storedHash: string,
): Promise<boolean> {
  return limiter.attempt(RATE_LIMITS.sharePassword, { ...attempt, secret: password }, () =>
    verifyPassword(password, storedHash),
  );
}
