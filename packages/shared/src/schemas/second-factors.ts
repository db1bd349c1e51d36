import { z } from "zod";
import { onFirstUse } from "./on-first-use";
import { passkeyAssertion } from "./passkeys";

/** Request bodies of the second-factor routes (own account, the sign-in's second step). */

/** A TOTP code (digits; spaces an app shows between groups are dropped) or a recovery code. */
const code = onFirstUse(() =>
  z
    .string({ error: "A code is required" })
    .transform((v) => v.replace(/[\s-]/g, ""))
    .pipe(z.string().min(6, "A code is required").max(32, "Codes are at most 32 characters")),
);

const password = onFirstUse(() =>
  z.string({ error: "Your password is required" }).min(1, "Your password is required").max(1024),
);

/** POST /account/two-factor/totp/confirm: the first code from the app proves the secret. */
export const confirmTotpRequest = onFirstUse(() => z.object({ code }));
export type ConfirmTotpRequest = z.input<typeof confirmTotpRequest>;

/** DELETE /account/two-factor/totp and POST /account/two-factor/recovery-codes: password and a code. */
export const secondFactorChangeRequest = onFirstUse(() => z.object({ password, code }));
export type SecondFactorChangeRequest = z.input<typeof secondFactorChangeRequest>;

/**
 * POST /admin/login/second-factor: the challenge the password step answered with, and a code or
 * a passkey's signature (of options from POST /admin/login/passkey/options).
 */
export const secondFactorLoginRequest = onFirstUse(() =>
  z
    .object({
      challenge: z.string({ error: "The sign-in challenge is required" }).min(1).max(200),
      code: code.optional(),
      passkey: passkeyAssertion.optional(),
    })
    .refine((body) => (body.code === undefined) !== (body.passkey === undefined), {
      message: "Send either a code or a passkey",
      path: ["code"],
    }),
);
export type SecondFactorLoginRequest = z.input<typeof secondFactorLoginRequest>;

/** POST /account/app-passwords: the name the list shows (which client it is for). */
export const createAppPasswordRequest = onFirstUse(() =>
  z.object({
    name: z
      .string({ error: "A name is required" })
      .trim()
      .min(1, "A name is required")
      .max(100, "The name may be at most 100 characters"),
  }),
);
export type CreateAppPasswordRequest = z.input<typeof createAppPasswordRequest>;
