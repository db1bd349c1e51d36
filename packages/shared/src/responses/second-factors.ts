import { z } from "zod";

/** What the second-factor routes answer in `data`. */

/** GET /account/two-factor. */
export const secondFactorStatus = z.strictObject({
  totp: z.boolean(),
  recovery_codes_left: z.number(),
  /** How many passkeys the account has: any one is a second factor too. */
  passkeys: z.number(),
});
export type SecondFactorStatus = z.infer<typeof secondFactorStatus>;

/** POST /account/two-factor/totp: the secret to scan (shown once), unconfirmed until a code proves it. */
export const totpSetup = z.strictObject({
  secret: z.string(),
  otpauth_uri: z.string(),
});
export type TotpSetup = z.infer<typeof totpSetup>;

/** Confirming TOTP or renewing the codes: ten one-time codes, shown once. */
export const recoveryCodes = z.strictObject({ recovery_codes: z.array(z.string()) });
export type RecoveryCodes = z.infer<typeof recoveryCodes>;

/**
 * The `details` of POST /admin/login's 401 `second_factor_required`: the single-use challenge to
 * send with a code to /admin/login/second-factor, and which kinds of code the account has.
 */
export const secondFactorChallenge = z.strictObject({
  challenge: z.string(),
  expires_at: z.string(),
  methods: z.array(z.enum(["totp", "recovery_code", "passkey"])),
});
export type SecondFactorChallenge = z.infer<typeof secondFactorChallenge>;
