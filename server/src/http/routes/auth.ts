/**
 * Sign-in (every account, at the path 0.7.3's admin login uses), sign-out, the credential
 * change, and the two "who am I" checks clients use to validate stored credentials.
 */
import {
  ALL_PERMISSIONS,
  type CredentialCheck,
  changePasswordRequest,
  loginRequest,
  permissionFlags,
} from "@clipshare/shared";
import { Hono } from "hono";
import { requireAccount, requireAdmin, requireAuthenticated } from "../../auth/policy";
import { accountIdOf } from "../../auth/principal";
import type { AppContext } from "../../context";
import { readJson } from "../body";
import { ok } from "../envelope";
import { described } from "../route-doc";
import { signInContext } from "../sign-in-context";
import type { AppEnv } from "../types";

export function authRoutes(ctx: AppContext) {
  const app = new Hono<AppEnv>();

  app.post(
    "/admin/login",
    described(
      (w) => ({
        summary:
          "Sign in with a user name and password (every role; 0.7.3 clients sign in administrators here)",
        errors: [
          "invalid_credentials",
          "account_disabled",
          "password_not_set",
          "second_factor_required",
          "rate_limited",
        ],
        tag: "Sign-in",
        access: "public",
        body: w.loginRequest,
        data: w.adminLogin,
      }),
      async (c) => {
        const body = await readJson(c, loginRequest);
        const result = await ctx.accounts.login(body.username, body.password, signInContext(c));
        return ok(c, result, "Login successful");
      },
    ),
  );

  app.post(
    "/admin/logout",
    described(
      () => ({ summary: "Sign this session out (revoke its token)", tag: "Sign-in", access: "account" }),
      async (c) => {
        const token = c.get("bearerToken");
        if (token) await ctx.accounts.logout(token);
        return ok(c, null, "Logged out");
      },
    ),
  );

  app.get(
    "/test/admin-token",
    described(
      () => ({
        summary: "Check an admin token",
        errors: ["unauthorized", "token_expired"],
        tag: "Sign-in",
        access: "admin",
      }),
      (c) => {
        requireAdmin(c.get("principal"));
        return ok(c, null, "Token valid");
      },
    ),
  );

  app.get(
    "/test/api-key",
    described(
      (w) => ({
        summary: "Who the credentials are",
        tag: "Sign-in",
        access: "key",
        data: w.credentialCheck,
      }),
      async (c) => {
        // Wrong keys are counted and limited where every key is resolved (auth/credentials.ts).
        const principal = c.get("principal");
        requireAuthenticated(principal);
        if (principal.kind === "admin") {
          const user = { id: principal.adminId, username: principal.username, role: "admin" as const };
          return ok(
            c,
            {
              name: "Administrator",
              basic_path: "/",
              permissions: permissionFlags(ALL_PERMISSIONS),
              permission_mask: ALL_PERMISSIONS,
              key_info: {
                id: principal.adminId,
                name: "Administrator",
                basic_path: "/",
                permissions: ALL_PERMISSIONS,
              },
              is_admin: true,
              user,
            } satisfies CredentialCheck,
            "Admin token verified",
          );
        }
        if (principal.kind === "user") {
          const { id, username, permissions, basePath, role } = principal.user;
          const user = { id, username, role };
          return ok(
            c,
            {
              name: username,
              basic_path: basePath,
              permissions: permissionFlags(permissions),
              permission_mask: permissions,
              key_info: { id, name: username, basic_path: basePath, permissions },
              is_admin: false,
              user,
            } satisfies CredentialCheck,
            "Session verified",
          );
        }
        const key = principal.key;
        const user = { id: key.ownerId, username: key.ownerName, role: key.ownerRole };
        return ok(
          c,
          {
            name: key.name,
            basic_path: key.basicPath,
            permissions: permissionFlags(key.permissions),
            permission_mask: key.permissions,
            key_info: {
              id: key.id,
              name: key.name,
              basic_path: key.basicPath,
              permissions: key.permissions,
              role: key.role,
              is_guest: key.isGuest,
            },
            is_admin: false,
            user,
          } satisfies CredentialCheck,
          "API key verified",
        );
      },
    ),
  );

  app.post(
    "/admin/change-password",
    described(
      (w) => ({
        summary: "Change your own user name or password (signs every session out)",
        errors: [
          "wrong_current_password",
          "password_unchanged",
          "nothing_to_update",
          "username_taken",
          "rate_limited",
        ],
        tag: "Sign-in",
        access: "account",
        body: w.changePasswordRequest,
      }),
      async (c) => {
        const principal = c.get("principal");
        requireAccount(principal);
        const body = await readJson(c, changePasswordRequest);
        await ctx.accounts.changeCredentials(accountIdOf(principal)!, body, c.get("clientIp"));
        return ok(c, null, "Info updated, please log in again");
      },
    ),
  );

  return app;
}
