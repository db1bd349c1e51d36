/**
 * Resolves the principal of every request from its credentials:
 *   Authorization: Bearer <admin token> | ApiKey <key> | Basic base64(user:pass)
 *   X-Custom-Auth-Key: <key> (0.7.3 clients)
 * Bad credentials do not fail the request here: the principal becomes anonymous
 * with the failure reason, and routes that need auth answer 401 with it.
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

/** Resolves credentials to a principal. Basic is checked by the caller's rate limiter (WebDAV). */
export async function resolvePrincipal(ctx: AppContext, creds: Credentials): Promise<Principal> {
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
    case "basic": {
      const admin = await ctx.admins.verifyCredentials(creds.username, creds.password);
      if (admin) return admin;
      // An API key as password (any username), the WebDAV convention.
      const key = await ctx.apiKeys.authenticate(creds.password);
      return key ? { kind: "apiKey", key } : { kind: "anonymous", authFailure: "invalid_credentials" };
    }
  }
}

export function authenticate(ctx: AppContext): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const creds = parseCredentials(c.req.header("authorization"), c.req.header("x-custom-auth-key"));
    if (creds.scheme === "bearer") c.set("bearerToken", creds.token);
    c.set("principal", await resolvePrincipal(ctx, creds));
    await next();
  };
}
