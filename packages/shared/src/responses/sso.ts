import { z } from "zod";
import { ROLES } from "../accounts";

/** What the single sign-on routes answer in `data`. */

/** The administrator's view: the client secret only as set / not set. */
export const ssoSettings = z.strictObject({
  enabled: z.boolean(),
  provider_name: z.string(),
  issuer_url: z.string(),
  client_id: z.string(),
  has_client_secret: z.boolean(),
  scopes: z.string(),
  role_claim: z.string(),
  admin_values: z.array(z.string()),
  user_values: z.array(z.string()),
  guest_values: z.array(z.string()),
  default_role: z.enum(ROLES),
  allowed_domains: z.array(z.string()),
  auto_create: z.boolean(),
  /** Enabled, with an issuer and a client id: the sign-in form offers the button. */
  configured: z.boolean(),
  /** Where the provider must send people back (register it there). */
  redirect_uri: z.string(),
});
export type SsoSettings = z.infer<typeof ssoSettings>;

/** GET /auth/oidc/status, for everyone: whether the sign-in form shows the button, and its name. */
export const ssoStatus = z.strictObject({
  enabled: z.boolean(),
  provider_name: z.string(),
});
export type SsoStatus = z.infer<typeof ssoStatus>;
