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
 *
 * An administrator who must set up a second factor first (the require_admin_second_factor
 * setting) is anonymous everywhere but the few routes enrolment needs, so every route that
 * needs a sign-in answers 403 `second_factor_enrolment_required`.
 */
import type { MiddlewareHandler } from "hono";
import { parseCredentials, resolvePrincipal } from "../../auth/credentials";
import type { Principal } from "../../auth/principal";
import type { AppContext } from "../../context";
import { requestHeader } from "../node-exchange";
import type { AppEnv } from "../types";

/** What an administrator still to enrol may reach: who they are, enrolment (TOTP or a passkey), signing out. */
const ENROLMENT_PATHS =
  /^\/api\/(account|account\/(two-factor|passkeys)(\/.*)?|admin\/logout|test\/admin-token|test\/api-key)$/;

export function authenticate(ctx: AppContext): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const creds = parseCredentials(requestHeader(c, "authorization"), requestHeader(c, "x-custom-auth-key"));
    if (creds.scheme === "bearer") c.set("bearerToken", creds.token);
    let principal: Principal =
      creds.scheme === "basic"
        ? { kind: "anonymous", authFailure: "basic_not_accepted" }
        : await resolvePrincipal(ctx, creds, c.get("clientIp"));
    if (!ENROLMENT_PATHS.test(c.req.path) && (await ctx.secondFactors.enrolmentDue(principal))) {
      principal = { kind: "anonymous", authFailure: "second_factor_enrolment" };
    }
    c.set("principal", principal);
    await next();
  };
}
