/**
 * Users and invitations as administrators manage them (/admin/users, /admin/invitations),
 * and the two public invitation routes a new user's sign-up page calls.
 */
import {
  acceptInvitationRequest,
  createInvitationRequest,
  createUserRequest,
  deleteUserQuery,
  ROLES,
  updateUserRequest,
} from "@clipshare/shared";
import { Hono } from "hono";
import { z } from "zod";
import { requireAdmin } from "../../auth/policy";
import type { AppContext } from "../../context";
import { readJson, readQuery } from "../body";
import { ok } from "../envelope";
import { requestHeader } from "../node-exchange";
import { described } from "../route-doc";
import type { AppEnv } from "../types";

const listQuery = z.object({
  search: z.string().trim().max(100).optional(),
  role: z.enum(ROLES).optional(),
  limit: z.coerce.number().int().min(1).max(500).optional(),
  offset: z.coerce.number().int().min(0).optional(),
});

/** A sub-app whose every route is for administrators (mounted at its own path, so the check covers only it). */
function adminApp() {
  const app = new Hono<AppEnv>();
  app.use(async (c, next) => {
    requireAdmin(c.get("principal"));
    await next();
  });
  return app;
}

export function userRoutes(ctx: AppContext) {
  const app = new Hono<AppEnv>();
  const users = adminApp();
  const invitations = adminApp();

  users.get(
    "/",
    described(
      (w) => ({ summary: "List users", tag: "Users", access: "admin", query: listQuery, data: w.userList }),
      async (c) => {
        const q = readQuery(c, listQuery);
        return ok(c, await ctx.users.list({ ...q, limit: q.limit ?? 100, offset: q.offset ?? 0 }), "Fetched");
      },
    ),
  );

  users.post(
    "/",
    described(
      (w) => ({
        summary: "Create a user with a first password",
        errors: ["username_taken"],
        tag: "Users",
        access: "admin",
        body: w.createUserRequest,
        data: w.user,
      }),
      async (c) => {
        const body = await readJson(c, createUserRequest);
        return ok(c, await ctx.users.create(body), "User created", 201);
      },
    ),
  );

  users.get(
    "/:id",
    described(
      (w) => ({
        summary: "One user",
        errors: ["user_not_found"],
        tag: "Users",
        access: "admin",
        data: w.user,
      }),
      async (c) => ok(c, await ctx.users.get(c.req.param("id")!), "Fetched"),
    ),
  );

  users.put(
    "/:id",
    described(
      (w) => ({
        summary: "Change a user's role, grant, display name, password or disabled flag",
        description:
          "A new password or role, a smaller grant, or disabling signs the user's sessions out; their API keys narrow at once.",
        errors: ["user_not_found", "last_admin", "nothing_to_update"],
        tag: "Users",
        access: "admin",
        body: w.updateUserRequest,
        data: w.user,
      }),
      async (c) => {
        const body = await readJson(c, updateUserRequest);
        return ok(c, await ctx.users.update(c.req.param("id")!, body), "User updated");
      },
    ),
  );

  users.delete(
    "/:id",
    described(
      (w) => ({
        summary: "Delete a user; what they own goes to `transfer_to`",
        errors: ["user_not_found", "last_admin", "transfer_required", "invalid_transfer_target"],
        tag: "Users",
        access: "admin",
        query: deleteUserQuery,
        data: w.counted("transferred"),
      }),
      async (c) => {
        const q = readQuery(c, deleteUserQuery);
        return ok(c, await ctx.users.delete(c.req.param("id")!, q.transfer_to), "User deleted");
      },
    ),
  );

  invitations.get(
    "/",
    described(
      (w) => ({ summary: "List invitations", tag: "Users", access: "admin", data: w.invitationList }),
      async (c) => ok(c, { invitations: await ctx.invitations.list() }, "Fetched"),
    ),
  );

  invitations.post(
    "/",
    described(
      (w) => ({
        summary: "Make a one-time sign-up link (the token is shown once)",
        tag: "Users",
        access: "admin",
        body: w.createInvitationRequest,
        data: w.createdInvitation,
      }),
      async (c) => {
        const principal = c.get("principal");
        requireAdmin(principal);
        const body = await readJson(c, createInvitationRequest);
        return ok(c, await ctx.invitations.create(body, principal.adminId), "Invitation created", 201);
      },
    ),
  );

  invitations.delete(
    "/:id",
    described(
      () => ({
        summary: "Withdraw an invitation",
        errors: ["invitation_not_found"],
        tag: "Users",
        access: "admin",
      }),
      async (c) => {
        await ctx.invitations.revoke(c.req.param("id")!);
        return ok(c, null, "Invitation withdrawn");
      },
    ),
  );

  app.route("/admin/users", users);
  app.route("/admin/invitations", invitations);

  app.get(
    "/invitations/:token",
    described(
      (w) => ({
        summary: "What an invitation link offers (before signing up)",
        errors: ["invitation_invalid", "rate_limited"],
        tag: "Users",
        access: "public",
        data: w.invitationPreview,
      }),
      async (c) => ok(c, await ctx.invitations.preview(c.req.param("token")!, c.get("clientIp")), "Fetched"),
    ),
  );

  app.post(
    "/invitations/:token/accept",
    described(
      (w) => ({
        summary: "Sign up through an invitation; answers a session, as sign-in does",
        errors: ["invitation_invalid", "username_taken", "rate_limited"],
        tag: "Users",
        access: "public",
        body: w.acceptInvitationRequest,
        data: w.adminLogin,
      }),
      async (c) => {
        const body = await readJson(c, acceptInvitationRequest);
        const login = await ctx.invitations.accept(c.req.param("token")!, body, {
          clientIp: c.get("clientIp"),
          userAgent: requestHeader(c, "user-agent") ?? null,
        });
        return ok(c, login, "Signed up", 201);
      },
    ),
  );

  return app;
}
