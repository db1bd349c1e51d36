/**
 * Resolves the principal of every /api request from its credentials:
 *   Authorization: Bearer <admin token> | ApiKey <key>
 *   X-Custom-Auth-Key: <key> (0.7.3 clients)
 * Bad credentials do not fail the request here: the principal becomes anonymous
 * with the failure reason, and routes that need auth answer 401 with it.
 *
 * HTTP Basic is parsed but not accepted on /api: it carries the admin password
 * on every request, so each one would be a rate-limited, deliberately slow
 * password check. Web clients sign in once (POST /api/admin/login) and send a
 * token; WebDAV clients, which can only send Basic, are served at /dav.
 */
import type { MiddlewareHandler } from "hono";
import type { Principal } from "../../auth/principal";
import type { AppContext } from "../../context";
import type { AppEnv } from "../types";

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

/** Resolves token and key credentials (cheap lookups, no password hash). Basic is WebDAV's (webdav/auth.ts). */
export async function resolvePrincipal(
  ctx: AppContext,
  creds: Exclude<Credentials, { scheme: "basic" }>,
): Promise<Principal> {
  switch (creds.scheme) {
    case "none":
      return { kind: "anonymous" };
    case "bearer": {
      const check = await ctx.admins.verifyToken(creds.token);
      return check.ok ? check.principal : { kind: "anonymous", authFailure: "token_expired" };
    }
    case "apikey": {
      const key = await ctx.apiKeys.authenticate(creds.key);
      return key ? { kind: "apiKey", key } : { kind: "anonymous", authFailure: "api_key_invalid" };
    }
  }
}

export function authenticate(ctx: AppContext): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const creds = parseCredentials(c.req.header("authorization"), c.req.header("x-custom-auth-key"));
    if (creds.scheme === "bearer") c.set("bearerToken", creds.token);
    c.set(
      "principal",
      creds.scheme === "basic"
        ? { kind: "anonymous", authFailure: "basic_not_accepted" }
        : await resolvePrincipal(ctx, creds),
    );
    await next();
  };
}
