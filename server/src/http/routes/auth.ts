/**
 * Admin sign-in, sign-out, credential change, and the two "who am I" checks
 * clients use to validate stored credentials.
 */
import {
  ALL_PERMISSIONS,
  type CredentialCheck,
  changePasswordRequest,
  loginRequest,
  permissionFlags,
} from "@clipshare/shared";
import { Hono } from "hono";
import { requireAdmin, requireAuthenticated } from "../../auth/policy";
import type { AppContext } from "../../context";
import { readJson } from "../body";
import { ok } from "../envelope";
import { described } from "../route-doc";
import type { AppEnv } from "../types";

export function authRoutes(ctx: AppContext) {
  const app = new Hono<AppEnv>();

  app.post(
    "/admin/login",
    described(
      (w) => ({
        summary: "Administrator sign-in",
        errors: ["invalid_credentials", "rate_limited"],
        tag: "Sign-in",
        access: "public",
        body: w.loginRequest,
        data: w.adminLogin,
      }),
      async (c) => {
        const body = await readJson(c, loginRequest);
        const result = await ctx.admins.login(body.username, body.password, c.get("clientIp"));
        return ok(c, result, "Login successful");
      },
    ),
  );

  app.post(
    "/admin/logout",
    described(
      () => ({ summary: "Revoke this admin token", tag: "Sign-in", access: "admin" }),
      async (c) => {
        const token = c.get("bearerToken");
        if (token) await ctx.admins.logout(token);
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
            } satisfies CredentialCheck,
            "Admin token verified",
          );
        }
        const key = principal.key;
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
        summary: "Change the administrator's name or password",
        errors: ["wrong_current_password", "password_unchanged", "nothing_to_update", "rate_limited"],
        tag: "Sign-in",
        access: "admin",
        body: w.changePasswordRequest,
      }),
      async (c) => {
        const principal = c.get("principal");
        requireAdmin(principal);
        const body = await readJson(c, changePasswordRequest);
        await ctx.admins.changeCredentials(principal.adminId, body, c.get("clientIp"));
        return ok(c, null, "Info updated, please log in again");
      },
    ),
  );

  return app;
}
