/**
 * Second factors: one's own TOTP and recovery codes (My account), and the sign-in's second
 * step, which trades the challenge POST /admin/login answered with and a code for a session.
 */
import {
  confirmTotpRequest,
  createAppPasswordRequest,
  secondFactorChangeRequest,
  secondFactorLoginRequest,
} from "@clipshare/shared";
import { Hono } from "hono";
import { ownAccountId, requireAdmin } from "../../auth/policy";
import type { AppContext } from "../../context";
import { accountDisabled } from "../../domain/users/account-service";
import { readJson } from "../body";
import { ok } from "../envelope";
import { relyingParty } from "../request-origin";
import { described } from "../route-doc";
import { signInContext } from "../sign-in-context";
import type { AppEnv } from "../types";

export function secondFactorRoutes(ctx: AppContext) {
  const app = new Hono<AppEnv>();
  const factors = ctx.secondFactors;

  const me = (c: { get(key: "principal"): AppEnv["Variables"]["principal"] }) =>
    ownAccountId(c.get("principal"));

  app.post(
    "/admin/login/second-factor",
    described(
      (w) => ({
        summary:
          "Finish signing in: the challenge of POST /admin/login's second_factor_required answer and a TOTP or recovery code, or a passkey's signature (options from POST /admin/login/passkey/options)",
        errors: [
          "sign_in_challenge_invalid",
          "invalid_second_factor_code",
          "invalid_passkey",
          "passkey_challenge_invalid",
          "account_disabled",
          "rate_limited",
        ],
        tag: "Sign-in",
        access: "public",
        body: w.secondFactorLoginRequest,
        data: w.adminLogin,
      }),
      async (c) => {
        const body = await readJson(c, secondFactorLoginRequest);
        const proof =
          body.passkey !== undefined
            ? { passkey: body.passkey, rp: relyingParty(c, ctx.config.trustProxy) }
            : { code: body.code! };
        const user = await factors.completeSignIn(body.challenge, proof, c.get("clientIp"));
        if (user.disabled === 1) throw accountDisabled();
        return ok(c, await ctx.accounts.startSession(user, signInContext(c)), "Login successful");
      },
    ),
  );

  app.get(
    "/account/two-factor",
    described(
      (w) => ({
        summary: "Your second factors: whether TOTP is on, how many recovery codes are left",
        tag: "Account",
        access: "account",
        data: w.secondFactorStatus,
      }),
      async (c) => ok(c, await factors.status(me(c)), "Fetched"),
    ),
  );

  app.post(
    "/account/two-factor/totp",
    described(
      (w) => ({
        summary:
          "Start setting up an authenticator app: a new secret and its otpauth:// URI (not on until confirmed)",
        errors: ["totp_already_enabled"],
        tag: "Account",
        access: "account",
        data: w.totpSetup,
      }),
      async (c) => {
        const id = me(c);
        const user = await ctx.users.get(id);
        return ok(c, await factors.startTotp({ id, username: user.username }), "Scan the code, then confirm");
      },
    ),
  );

  app.post(
    "/account/two-factor/totp/confirm",
    described(
      (w) => ({
        summary:
          "Turn TOTP on with a first code from the app; answers ten one-time recovery codes (shown once)",
        errors: ["totp_setup_missing", "totp_already_enabled", "invalid_second_factor_code", "rate_limited"],
        tag: "Account",
        access: "account",
        body: w.confirmTotpRequest,
        data: w.recoveryCodes,
      }),
      async (c) => {
        const body = await readJson(c, confirmTotpRequest);
        return ok(
          c,
          await factors.confirmTotp(me(c), body.code, c.get("clientIp")),
          "Two-factor sign-in is on",
        );
      },
    ),
  );

  app.post(
    "/account/two-factor/totp/disable",
    described(
      (w) => ({
        summary: "Turn TOTP off (removes the recovery codes too), confirmed with your password and a code",
        errors: ["totp_not_enabled", "wrong_current_password", "invalid_second_factor_code", "rate_limited"],
        tag: "Account",
        access: "account",
        body: w.secondFactorChangeRequest,
      }),
      async (c) => {
        const body = await readJson(c, secondFactorChangeRequest);
        await factors.disableTotp(me(c), body.password, body.code, c.get("clientIp"));
        return ok(c, null, "Two-factor sign-in is off");
      },
    ),
  );

  app.post(
    "/account/two-factor/recovery-codes",
    described(
      (w) => ({
        summary: "Ten new recovery codes in place of the old ones, confirmed with your password and a code",
        errors: ["totp_not_enabled", "wrong_current_password", "invalid_second_factor_code", "rate_limited"],
        tag: "Account",
        access: "account",
        body: w.secondFactorChangeRequest,
        data: w.recoveryCodes,
      }),
      async (c) => {
        const body = await readJson(c, secondFactorChangeRequest);
        return ok(
          c,
          await factors.renewRecoveryCodes(me(c), body.password, body.code, c.get("clientIp")),
          "New recovery codes",
        );
      },
    ),
  );

  app.get(
    "/account/app-passwords",
    described(
      (w) => ({
        summary: "Your app passwords (WebDAV only): name, when made, when last used",
        tag: "Account",
        access: "account",
        data: w.appPasswordList,
      }),
      async (c) => ok(c, { app_passwords: await ctx.appPasswords.list(me(c)) }, "Fetched"),
    ),
  );

  app.post(
    "/account/app-passwords",
    described(
      (w) => ({
        summary:
          "Make an app password for a WebDAV client: your user name and it sign in to /dav, also with a second factor on (shown once)",
        errors: ["app_password_limit"],
        tag: "Account",
        access: "account",
        body: w.createAppPasswordRequest,
        data: w.createdAppPassword,
      }),
      async (c) => {
        const body = await readJson(c, createAppPasswordRequest);
        return ok(c, await ctx.appPasswords.create(me(c), body.name), "App password created", 201);
      },
    ),
  );

  app.delete(
    "/account/app-passwords/:id",
    described(
      () => ({
        summary: "Revoke one of your app passwords; WebDAV refuses it at once",
        errors: ["app_password_not_found"],
        tag: "Account",
        access: "account",
      }),
      async (c) => {
        await ctx.appPasswords.revoke(me(c), c.req.param("id")!);
        return ok(c, null, "App password revoked");
      },
    ),
  );

  app.post(
    "/admin/users/:id/reset-second-factor",
    described(
      () => ({
        summary:
          "Reset a user's second factor: removes TOTP, the recovery codes and the passkeys, and signs them out",
        errors: ["user_not_found"],
        tag: "Users",
        access: "admin",
      }),
      async (c) => {
        requireAdmin(c.get("principal"));
        await factors.reset(c.req.param("id")!);
        return ok(c, null, "Second factor reset");
      },
    ),
  );

  return app;
}
