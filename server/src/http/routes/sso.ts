/**
 * Single sign-on with OpenID Connect: the public status the sign-in form reads, the start and
 * callback of the provider's round trip (browser navigations: they answer with redirects, and
 * every failure ends on the web app's sign-in error page, never a JSON error or a 500), the
 * hand-off of the session to the web app, and the administrator's settings.
 */
import { type ErrorCode, SSO_CALLBACK_ERRORS, ssoExchangeRequest, ssoSettingsBody } from "@clipshare/shared";
import type { Context } from "hono";
import { Hono } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { requireAdmin } from "../../auth/policy";
import type { AppContext } from "../../context";
import { SSO_FLOW_TTL_MS } from "../../domain/sso/oidc-sign-in";
import { isAppError } from "../../errors";
import { readJson } from "../body";
import { ok } from "../envelope";
import { requestHeader } from "../node-exchange";
import { publicOrigin } from "../request-origin";
import { described } from "../route-doc";
import type { AppEnv } from "../types";

const STATE_COOKIE = "clipshare_sso_state";
const COOKIE_PATH = "/api/auth/oidc";
/** The web app's page that finishes a sign-in (the code) or explains why it failed (the error id). */
const FINISH_PAGE = "/sso";

export function ssoRoutes(ctx: AppContext) {
  const app = new Hono<AppEnv>();
  const { settings, signIn } = ctx.sso;
  const origin = (c: Context) => publicOrigin(c, ctx.config.trustProxy);
  const redirectUri = (c: Context) => `${origin(c)}${COOKIE_PATH}/callback`;
  /** Every failure of the round trip as the finish page with its error id (the page has both languages). */
  const failurePage = (c: Context, e: unknown) => {
    const id: ErrorCode = isAppError(e) ? e.error : "sso_failed";
    if (!isAppError(e)) ctx.log.error({ err: e }, "Single sign-on failed");
    else ctx.log.info({ error: id, reason: e.message }, "Single sign-on refused");
    return c.redirect(`${FINISH_PAGE}?error=${encodeURIComponent(id)}`, 302);
  };

  app.get(
    "/auth/oidc/status",
    described(
      (w) => ({
        summary: "Whether single sign-on is set up, and the provider's name for the sign-in button",
        tag: "Sign-in",
        access: "public",
        data: w.ssoStatus,
      }),
      async (c) => ok(c, await settings.status(), "Fetched"),
    ),
  );

  app.get(
    "/auth/oidc/start",
    described(
      () => ({
        summary: "Start signing in with the single sign-on provider",
        description:
          "Answers 302 to the provider's authorization endpoint (code flow with PKCE, state and nonce) and sets a short-lived HttpOnly cookie with the state; when single sign-on is not set up, 302 to the web app's /sso?error=sso_not_configured.",
        tag: "Sign-in",
        access: "public",
        errors: ["sso_not_configured", "sso_failed"],
        file: "html",
      }),
      async (c) => {
        try {
          const { url, state } = await signIn.start(redirectUri(c));
          setCookie(c, STATE_COOKIE, state, {
            path: COOKIE_PATH,
            httpOnly: true,
            // Lax: the provider's redirect back is a top-level navigation from its site.
            sameSite: "Lax",
            secure: origin(c).startsWith("https:"),
            maxAge: SSO_FLOW_TTL_MS / 1000,
          });
          return c.redirect(url, 302);
        } catch (e) {
          return failurePage(c, e);
        }
      },
    ),
  );

  app.get(
    "/auth/oidc/callback",
    described(
      () => ({
        summary: "Where the single sign-on provider sends the person back",
        description:
          "Checks the state (cookie and stored sign-in, used once), the code with its PKCE verifier and the ID token's nonce, finds or creates the user, and answers 302 to the web app's /sso#code=… (a one-time code for POST /api/auth/oidc/exchange); any failure answers 302 to /sso?error=<id>.",
        tag: "Sign-in",
        access: "public",
        errors: [...SSO_CALLBACK_ERRORS],
        file: "html",
      }),
      async (c) => {
        const cookieState = getCookie(c, STATE_COOKIE);
        deleteCookie(c, STATE_COOKIE, { path: COOKIE_PATH });
        try {
          // The URL the provider redirected to, as registered there (query from this request).
          const current = new URL(redirectUri(c));
          current.search = new URL(c.req.url).search;
          const code = await signIn.callback(current, cookieState, c.get("clientIp"));
          return c.redirect(`${FINISH_PAGE}#code=${encodeURIComponent(code)}`, 302);
        } catch (e) {
          return failurePage(c, e);
        }
      },
    ),
  );

  app.post(
    "/auth/oidc/exchange",
    described(
      (w) => ({
        summary: "Trade the one-time code of a single sign-on for a session (as a password sign-in answers)",
        tag: "Sign-in",
        access: "public",
        errors: ["sso_state_invalid", "account_disabled", "rate_limited"],
        body: w.ssoExchangeRequest,
        data: w.adminLogin,
      }),
      async (c) => {
        const { code } = await readJson(c, ssoExchangeRequest);
        const login = await signIn.exchange(code, {
          clientIp: c.get("clientIp"),
          userAgent: requestHeader(c, "user-agent") ?? null,
        });
        return ok(c, login, "Login successful");
      },
    ),
  );

  app.get(
    "/admin/sso-settings",
    described(
      (w) => ({
        summary: "The single sign-on settings (the client secret only as set / not set)",
        tag: "Settings",
        access: "admin",
        data: w.ssoSettings,
      }),
      async (c) => {
        requireAdmin(c.get("principal"));
        return ok(c, await settings.get(redirectUri(c)), "Fetched");
      },
    ),
  );

  app.put(
    "/admin/sso-settings",
    described(
      (w) => ({
        summary: "Change the single sign-on provider, client, role mapping, e-mail domains or auto-creation",
        tag: "Settings",
        access: "admin",
        errors: ["url_not_allowed", "invalid_url"],
        body: w.ssoSettingsBody,
        data: w.ssoSettings,
      }),
      async (c) => {
        requireAdmin(c.get("principal"));
        const body = await readJson(c, ssoSettingsBody);
        return ok(c, await settings.update(body, redirectUri(c)), "Single sign-on settings saved");
      },
    ),
  );

  return app;
}
