import { z } from "zod";
import { onFirstUse } from "./on-first-use";

/** Request bodies of the passkey routes (own account, the sign-in steps); docs/accounts.md#passkeys. */

export const PASSKEY_NAME_MAX = 64;

const passkeyName = onFirstUse(() =>
  z
    .string({ error: "A name for the passkey is required" })
    .trim()
    .min(1, "A name for the passkey is required")
    .max(PASSKEY_NAME_MAX, `Names are at most ${PASSKEY_NAME_MAX} characters`),
);

const b64url = z
  .string()
  .max(16_384)
  .regex(/^[A-Za-z0-9_-]*$/, "Expected base64url");

/**
 * What navigator.credentials.create()/get() answered, as @simplewebauthn/browser encodes it
 * (base64url fields). Only the shape is checked here; the signature is the server's to judge.
 */
const credentialBase = {
  id: b64url.min(1),
  rawId: b64url.min(1),
  type: z.literal("public-key"),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
  authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
};

export const passkeyRegistrationResponse = onFirstUse(() =>
  z.object({
    ...credentialBase,
    response: z.object({
      clientDataJSON: b64url,
      attestationObject: b64url,
      transports: z.array(z.string().max(32)).max(16).optional(),
    }),
  }),
);

export const passkeyAssertion = onFirstUse(() =>
  z.object({
    ...credentialBase,
    response: z.object({
      clientDataJSON: b64url,
      authenticatorData: b64url,
      signature: b64url,
      userHandle: b64url.optional(),
    }),
  }),
);

export type PasskeyAssertion = z.infer<typeof passkeyAssertion>;

/** POST /account/passkeys: the new credential and the name its owner gave it. */
export const addPasskeyRequest = onFirstUse(() =>
  z.object({ name: passkeyName, response: passkeyRegistrationResponse }),
);
export type AddPasskeyRequest = z.infer<typeof addPasskeyRequest>;

/** PUT /account/passkeys/:id. */
export const renamePasskeyRequest = onFirstUse(() => z.object({ name: passkeyName }));
export type RenamePasskeyRequest = z.input<typeof renamePasskeyRequest>;

/**
 * POST /admin/login/passkey/options: with the challenge of a `second_factor_required` answer,
 * options for that account's passkeys; without, for a passwordless sign-in.
 */
export const passkeySignInOptionsRequest = onFirstUse(() =>
  z.object({ challenge: z.string().min(1).max(200).optional() }),
);
export type PasskeySignInOptionsRequest = z.input<typeof passkeySignInOptionsRequest>;

/** POST /admin/login/passkey: a passwordless sign-in's signed challenge. */
export const passkeySignInRequest = onFirstUse(() => z.object({ response: passkeyAssertion }));
export type PasskeySignInRequest = z.input<typeof passkeySignInRequest>;
