import { z } from "zod";
import { ROLES } from "../accounts";
import type { ErrorCode } from "../errors";
import { onFirstUse } from "./on-first-use";

/** Single sign-on with OpenID Connect (docs/accounts.md#single-sign-on). */

export const SSO_DEFAULT_SCOPES = "openid email profile";

/** Why a sign-in failed on the way back from the provider: the callback sends the web app to /sso?error=<one of these>. */
export const SSO_CALLBACK_ERRORS = [
  "sso_state_invalid",
  "sso_denied",
  "sso_failed",
  "sso_domain_not_allowed",
  "sso_email_missing",
  "sso_unknown_user",
  "sso_user_taken",
  "account_disabled",
  "rate_limited",
] as const satisfies readonly ErrorCode[];
export const SSO_PROVIDER_NAME_MAX = 60;

const text = (max: number) => z.string().trim().max(max);
/** A list of words (role values, e-mail domains), stored and answered as an array. */
const words = (max: number) => z.array(text(max).min(1)).max(50);

/** PUT /admin/sso-settings: any field; absent keeps, null clears. */
export const ssoSettingsBody = onFirstUse(() =>
  z
    .object({
      enabled: z.boolean().optional(),
      provider_name: text(SSO_PROVIDER_NAME_MAX).optional(),
      issuer_url: z
        .union([
          text(2048).regex(/^https?:\/\//i, "The issuer URL starts with http:// or https://"),
          z.literal(""),
        ])
        .optional(),
      client_id: text(500).optional(),
      /** A new secret; null removes it; absent keeps it. */
      client_secret: z.union([z.string().max(2000), z.null()]).optional(),
      scopes: text(500)
        .refine((v) => v === "" || v.split(/\s+/).includes("openid"), "The scopes must include openid")
        .optional(),
      /** The ID-token or userinfo claim that names the role (a string or a list); "": everyone is `default_role`. */
      role_claim: text(200).optional(),
      admin_values: words(200).optional(),
      user_values: words(200).optional(),
      guest_values: words(200).optional(),
      /** The role of someone whose claim matches none of the values (or when no claim is set). */
      default_role: z.enum(ROLES).optional(),
      /** E-mail domains that may sign in; empty: any. */
      allowed_domains: words(253).optional(),
      /** Unknown people become users on first sign-in; off: only users an admin made or invited. */
      auto_create: z.boolean().optional(),
    })
    .strict(),
);
export type SsoSettingsBody = z.output<typeof ssoSettingsBody>;

/** POST /auth/oidc/exchange: the one-time code the callback handed to the web app. */
export const ssoExchangeRequest = onFirstUse(() =>
  z.object({ code: z.string().trim().min(1).max(200) }).strict(),
);
