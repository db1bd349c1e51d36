/**
 * One's own account: who I am, my display name, my sessions (list, sign one out, sign the
 * others out). The user name and password change at POST /admin/change-password (auth.ts),
 * where 0.7.3 clients change them.
 */
import { updateAccountRequest } from "@clipshare/shared";
import { Hono } from "hono";
import { requireAccount } from "../../auth/policy";
import { accountIdOf, sessionIdOf } from "../../auth/principal";
import type { AppContext } from "../../context";
import { readJson } from "../body";
import { ok } from "../envelope";
import { described } from "../route-doc";
import type { AppEnv } from "../types";

export function accountRoutes(ctx: AppContext) {
  const app = new Hono<AppEnv>();

  /** The signed-in account (sessions only: API keys have /test/api-key). */
  const me = (c: { get(key: "principal"): AppEnv["Variables"]["principal"] }) => {
    const principal = c.get("principal");
    requireAccount(principal);
    return { id: accountIdOf(principal)!, session: sessionIdOf(principal) };
  };

  app.get(
    "/account",
    described(
      (w) => ({
        summary: "Your account: name, role, grant",
        tag: "Account",
        access: "account",
        data: w.user,
      }),
      async (c) => ok(c, await ctx.users.get(me(c).id), "Fetched"),
    ),
  );

  app.put(
    "/account",
    described(
      (w) => ({
        summary: "Change your display name",
        tag: "Account",
        access: "account",
        body: w.updateAccountRequest,
        data: w.user,
      }),
      async (c) => {
        const { id } = me(c);
        const body = await readJson(c, updateAccountRequest);
        return ok(c, await ctx.users.setDisplayName(id, body.display_name), "Account updated");
      },
    ),
  );

  app.get(
    "/account/sessions",
    described(
      (w) => ({
        summary: "Your signed-in sessions (browsers and clients)",
        tag: "Account",
        access: "account",
        data: w.sessionList,
      }),
      async (c) => {
        const { id, session } = me(c);
        return ok(c, { sessions: await ctx.accounts.listSessions(id, session) }, "Fetched");
      },
    ),
  );

  app.delete(
    "/account/sessions/:id",
    described(
      () => ({
        summary: "Sign one of your sessions out",
        errors: ["session_not_found"],
        tag: "Account",
        access: "account",
      }),
      async (c) => {
        await ctx.accounts.endSession(me(c).id, c.req.param("id")!);
        return ok(c, null, "Signed out");
      },
    ),
  );

  app.post(
    "/account/sessions/sign-out-others",
    described(
      (w) => ({
        summary: "Sign every other session of yours out",
        tag: "Account",
        access: "account",
        data: w.counted("signed_out"),
      }),
      async (c) => {
        const { id, session } = me(c);
        return ok(c, { signed_out: await ctx.accounts.endOtherSessions(id, session) }, "Signed out");
      },
    ),
  );

  return app;
}
