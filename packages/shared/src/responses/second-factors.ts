import { z } from "zod";

/** What the second-factor routes answer in `data`. */

/** GET /account/two-factor. */
export const secondFactorStatus = z.strictObject({
  totp: z.boolean(),
  recovery_codes_left: z.number(),
  /** How many passkeys the account has: any one is a second factor too. */
  passkeys: z.number(),
  /**
   * An administrator without a second factor while the setting requires one: until TOTP is on,
   * the session reaches only My account's enrolment (403 second_factor_enrolment_required).
   */
  enrolment_required: z.boolean(),
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

/** A WebDAV-only password of one's account, as listed (the password itself only when made). */
export const appPassword = z.strictObject({
  id: z.string(),
  name: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
});
export type AppPasswordDto = z.infer<typeof appPassword>;

/** POST /account/app-passwords: the new password, shown once. */
export const createdAppPassword = appPassword.extend({ password: z.string() });
export type CreatedAppPassword = z.infer<typeof createdAppPassword>;

export const appPasswordList = z.strictObject({ app_passwords: z.array(appPassword) });
