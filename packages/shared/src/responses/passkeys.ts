import { z } from "zod";

/** What the passkey routes answer in `data`. */

/** One of the caller's passkeys (never its key material). */
export const passkey = z.strictObject({
  id: z.string(),
  name: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
});
export type PasskeyDto = z.infer<typeof passkey>;

export const passkeyList = z.strictObject({ passkeys: z.array(passkey) });

/**
 * The WebAuthn options to hand to navigator.credentials (PublicKeyCredentialCreationOptionsJSON
 * or …RequestOptionsJSON, as @simplewebauthn/browser takes them); the challenge inside is
 * single-use and lives five minutes.
 */
export const passkeyOptions = z.strictObject({ options: z.record(z.string(), z.unknown()) });
export type PasskeyOptions = z.infer<typeof passkeyOptions>;
