/**
 * Resolves the principal of every /api request from its credentials
 * (auth/credentials.ts): Bearer admin tokens, ApiKey and X-Custom-Auth-Key.
 * Bad credentials do not fail the request here: the principal becomes anonymous
 * with the failure reason, and routes that need auth answer 401 with it.
 *
 * HTTP Basic is parsed but not accepted on /api: it carries the admin password
 * on every request, so each one would be a rate-limited, deliberately slow
 * password check. Web clients sign in once (POST /api/admin/login) and send a
 * token; WebDAV clients, which can only send Basic, are served at /dav.
 */
import type { MiddlewareHandler } from "hono";
import { parseCredentials, resolvePrincipal } from "../../auth/credentials";
import type { AppContext } from "../../context";
import { requestHeader } from "../node-exchange";
import type { AppEnv } from "../types";

export function authenticate(ctx: AppContext): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const creds = parseCredentials(requestHeader(c, "authorization"), requestHeader(c, "x-custom-auth-key"));
    if (creds.scheme === "bearer") c.set("bearerToken", creds.token);
    c.set(
      "principal",
      creds.scheme === "basic"
        ? { kind: "anonymous", authFailure: "basic_not_accepted" }
        : await resolvePrincipal(ctx, creds, c.get("clientIp")),
    );
    await next();
  };
}
