/**
 * Passkeys (docs/accounts.md#passkeys): one's own in My account (register, list, rename,
 * delete), and the sign-in with one, as the second step after a password or on its own.
 */
import {
  addPasskeyRequest,
  passkeySignInOptionsRequest,
  passkeySignInRequest,
  renamePasskeyRequest,
} from "@clipshare/shared";
import type { Context } from "hono";
import { Hono } from "hono";
import { ownAccountId } from "../../auth/policy";
import type { AppContext } from "../../context";
import { accountDisabled } from "../../domain/users/account-service";
import { readJson } from "../body";
import { ok } from "../envelope";
import { relyingParty } from "../request-origin";
import { described } from "../route-doc";
import { signInContext } from "../sign-in-context";
import type { AppEnv } from "../types";

export function passkeyRoutes(ctx: AppContext) {
  const app = new Hono<AppEnv>();
  const passkeys = ctx.passkeys;
  const rp = (c: Context<AppEnv>) => relyingParty(c, ctx.config.trustProxy);
  const me = (c: { get(key: "principal"): AppEnv["Variables"]["principal"] }) =>
    ownAccountId(c.get("principal"));

  app.get(
    "/account/passkeys",
    described(
      (w) => ({
        summary: "Your passkeys: name, when each was added and last used",
        tag: "Account",
        access: "account",
        data: w.passkeyList,
      }),
      async (c) => ok(c, { passkeys: await passkeys.list(me(c)) }, "Fetched"),
    ),
  );

  app.post(
    "/account/passkeys/options",
    described(
      (w) => ({
        summary:
          "Start adding a passkey: options for navigator.credentials.create() (single-use challenge, five minutes)",
        tag: "Account",
        access: "account",
        data: w.passkeyOptions,
      }),
      async (c) => {
        const user = await ctx.users.get(me(c));
        return ok(c, { options: await passkeys.registrationOptions(user, rp(c)) }, "Options made");
      },
    ),
  );

  app.post(
    "/account/passkeys",
    described(
      (w) => ({
        summary:
          "Add a passkey: its name and the browser's answer to the options; from then on it is a second factor and signs in on its own",
        errors: ["invalid_passkey", "passkey_challenge_invalid", "passkey_already_registered"],
        tag: "Account",
        access: "account",
        body: w.addPasskeyRequest,
        data: w.passkey,
      }),
      async (c) => {
        const id = me(c);
        const body = await readJson(c, addPasskeyRequest);
        return ok(c, await passkeys.add(id, body, rp(c)), "Passkey added", 201);
      },
    ),
  );

  app.put(
    "/account/passkeys/:id",
    described(
      (w) => ({
        summary: "Rename one of your passkeys",
        errors: ["passkey_not_found"],
        tag: "Account",
        access: "account",
        body: w.renamePasskeyRequest,
        data: w.passkey,
      }),
      async (c) => {
        const id = me(c);
        const body = await readJson(c, renamePasskeyRequest);
        return ok(c, await passkeys.rename(id, c.req.param("id")!, body.name), "Passkey renamed");
      },
    ),
  );

  app.delete(
    "/account/passkeys/:id",
    described(
      () => ({
        summary: "Delete one of your passkeys",
        errors: ["passkey_not_found"],
        tag: "Account",
        access: "account",
      }),
      async (c) => {
        await passkeys.remove(me(c), c.req.param("id")!);
        return ok(c, null, "Passkey deleted");
      },
    ),
  );

  app.post(
    "/admin/login/passkey/options",
    described(
      (w) => ({
        summary:
          "Options for navigator.credentials.get(): with the challenge of a second_factor_required answer, for that account's passkeys; without, for a passwordless sign-in",
        errors: ["sign_in_challenge_invalid", "passkey_not_found"],
        tag: "Sign-in",
        access: "public",
        body: w.passkeySignInOptionsRequest,
        data: w.passkeyOptions,
      }),
      async (c) => {
        const body = await readJson(c, passkeySignInOptionsRequest);
        const userId =
          body.challenge === undefined ? null : await ctx.secondFactors.challengedUser(body.challenge);
        return ok(c, { options: await passkeys.signInOptions(userId, rp(c)) }, "Options made");
      },
    ),
  );

  app.post(
    "/admin/login/passkey",
    described(
      (w) => ({
        summary:
          "Sign in with a passkey alone (passwordless): the signed options of POST /admin/login/passkey/options; answers as a password sign-in",
        errors: ["invalid_passkey", "passkey_challenge_invalid", "account_disabled", "rate_limited"],
        tag: "Sign-in",
        access: "public",
        body: w.passkeySignInRequest,
        data: w.adminLogin,
      }),
      async (c) => {
        const body = await readJson(c, passkeySignInRequest);
        const user = await passkeys.verifyAssertion(body.response, null, rp(c), c.get("clientIp"));
        if (user.disabled === 1) throw accountDisabled();
        return ok(c, await ctx.accounts.startSession(user, signInContext(c)), "Login successful");
      },
    ),
  );

  return app;
}
