/**
 * Credentials as clients send them, for both transports:
 *   Authorization: Bearer <session token> | ApiKey <key> | Basic <user:password>
 *   X-Custom-Auth-Key: <key> (0.7.3 clients)
 * Parsing never fails: anything unreadable is "none". Which schemes a
 * transport accepts is its own decision (the JSON API refuses Basic; WebDAV
 * takes it), but tokens and keys resolve the same way everywhere.
 */
import type { ApiKeyIdentity, Principal } from "./principal";
import { RATE_LIMITS, type RateLimiter } from "./rate-limiter";

export type Credentials =
  | { scheme: "bearer"; token: string }
  | { scheme: "apikey"; key: string }
  | { scheme: "basic"; username: string; password: string }
  | { scheme: "none" };

export function parseCredentials(authorization: string | undefined, customKey?: string): Credentials {
  if (authorization) {
    const space = authorization.indexOf(" ");
    const scheme = (space === -1 ? authorization : authorization.slice(0, space)).toLowerCase();
    const value = space === -1 ? "" : authorization.slice(space + 1).trim();
    if (value) {
      if (scheme === "bearer") return { scheme: "bearer", token: value };
      if (scheme === "apikey") return { scheme: "apikey", key: value };
      if (scheme === "basic") {
        const decoded = Buffer.from(value, "base64").toString("utf8");
        const colon = decoded.indexOf(":");
        if (colon !== -1) {
          return { scheme: "basic", username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
        }
      }
    }
  }
  if (customKey) return { scheme: "apikey", key: customKey.trim() };
  return { scheme: "none" };
}

/** Who can vouch for a token or a key (the account and API-key services). */
export interface CredentialVerifiers {
  accounts: {
    verifyToken(token: string): Promise<{ ok: true; principal: Principal } | { ok: false }>;
  };
  apiKeys: { authenticate(key: string): Promise<ApiKeyIdentity | null> };
  rateLimiter: Pick<RateLimiter, "attemptCountingFailures">;
}

/**
 * An API key as the principal it stands for, or null. Wrong keys count against the address like
 * wrong passwords, and a locked-out address gets 429 whatever key it sends.
 */
export function authenticateApiKey(
  verifiers: CredentialVerifiers,
  key: string,
  clientIp: string,
): Promise<ApiKeyIdentity | null> {
  return verifiers.rateLimiter.attemptCountingFailures(RATE_LIMITS.apiKey, { clientIp }, () =>
    verifiers.apiKeys.authenticate(key),
  );
}

/**
 * Resolves token and key credentials (cheap lookups, no password hash). Bad
 * ones give an anonymous principal with the reason, so routes that need
 * authentication can say why.
 */
export async function resolvePrincipal(
  verifiers: CredentialVerifiers,
  creds: Exclude<Credentials, { scheme: "basic" }>,
  clientIp: string,
): Promise<Principal> {
  switch (creds.scheme) {
    case "none":
      return { kind: "anonymous" };
    case "bearer": {
      const check = await verifiers.accounts.verifyToken(creds.token);
      return check.ok ? check.principal : { kind: "anonymous", authFailure: "token_expired" };
    }
    case "apikey": {
      const key = await authenticateApiKey(verifiers, creds.key, clientIp);
      return key ? { kind: "apiKey", key } : { kind: "anonymous", authFailure: "api_key_invalid" };
    }
  }
}
