/**
 * Passkeys (docs/accounts.md#passkeys, decision 0087): WebAuthn credentials a user registers in
 * My account, checked through @simplewebauthn/server. A passkey is a second factor after the
 * password, and on its own signs in without one (it proved possession and the user's PIN or
 * biometric). Every challenge is a database row, single-use and five minutes long, so any
 * instance can finish what another began; every assertion check goes through the database
 * limiter, bucket `second_factor`, as TOTP codes do.
 */
import { randomBytes, randomUUID } from "node:crypto";
import type { AddPasskeyRequest, PasskeyAssertion, PasskeyDto } from "@clipshare/shared";
import { SIGN_IN_CHALLENGE_SECONDS, TOTP_ISSUER } from "@clipshare/shared";
import {
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from "@simplewebauthn/server";
import { RATE_LIMITS, type RateLimiter, secondFactorTarget } from "../../auth/rate-limiter";
import type { Db } from "../../db/database";
import { nowIso } from "../../db/database";
import type { UserPasskeysTable, WebauthnChallengesTable } from "../../db/schema";
import { AppError, conflict, notFound } from "../../errors";
import { sha256Hex } from "../../lib/crypto";
import type { Logger } from "../../logger";
import { USER_FIELDS, type UserFields } from "./principals";

/** Who the browser talks to: the public origin and its host name, the WebAuthn RP ID. */
export interface RelyingParty {
  origin: string;
  rpId: string;
}

type Purpose = WebauthnChallengesTable["purpose"];
type PasskeyRow = Pick<UserPasskeysTable, "id" | "user_id" | "credential_id" | "public_key" | "name"> & {
  counter: number;
  transports: string;
};

const invalidPasskey = () =>
  new AppError(
    401,
    "invalid_passkey",
    "The passkey could not be verified; try again or use another sign-in method",
  );
const challengeInvalid = () =>
  new AppError(
    401,
    "passkey_challenge_invalid",
    "This passkey request has expired or was already used; start again",
  );
const passkeyNotFound = () => notFound("Passkey does not exist", "passkey_not_found");

const transportsOf = (json: string): AuthenticatorTransport[] => {
  try {
    const parsed: unknown = JSON.parse(json);
    return Array.isArray(parsed)
      ? (parsed.filter((t) => typeof t === "string") as AuthenticatorTransport[])
      : [];
  } catch {
    return [];
  }
};

/** The challenge the browser signed, read from clientDataJSON; null when it is not there. */
function signedChallenge(clientDataJSON: string): string | null {
  try {
    const data: unknown = JSON.parse(Buffer.from(clientDataJSON, "base64url").toString("utf8"));
    const challenge = (data as { challenge?: unknown } | null)?.challenge;
    return typeof challenge === "string" && challenge.length <= 200 ? challenge : null;
  } catch {
    return null;
  }
}

/** The user handle a passkey carries: the account id's bytes, so a passwordless sign-in names its account. */
const userHandleOf = (userId: string) => Buffer.from(userId, "utf8");

const toDto = (row: Pick<UserPasskeysTable, "id" | "name" | "created_at" | "last_used_at">): PasskeyDto => ({
  id: row.id,
  name: row.name,
  created_at: row.created_at,
  last_used_at: row.last_used_at,
});

export class PasskeyService {
  constructor(
    private readonly db: Db,
    private readonly rateLimiter: RateLimiter,
    private readonly log: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  async list(userId: string): Promise<PasskeyDto[]> {
    const rows = await this.db
      .selectFrom("user_passkeys")
      .select(["id", "name", "created_at", "last_used_at"])
      .where("user_id", "=", userId)
      .orderBy("created_at")
      .orderBy("id")
      .execute();
    return rows.map(toDto);
  }

  async count(userId: string): Promise<number> {
    const row = await this.db
      .selectFrom("user_passkeys")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("user_id", "=", userId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  // ---- registration (My account) ---------------------------------------------

  /** Options for navigator.credentials.create(): a discoverable credential, none of the account's again. */
  async registrationOptions(
    user: Pick<UserFields, "id" | "username"> & { display_name?: string | null },
    rp: RelyingParty,
  ) {
    const existing = await this.credentialsOf(user.id);
    return generateRegistrationOptions({
      rpName: TOTP_ISSUER,
      rpID: rp.rpId,
      userName: user.username,
      userDisplayName: user.display_name || user.username,
      userID: userHandleOf(user.id),
      challenge: await this.newChallenge("register", user.id),
      attestationType: "none",
      excludeCredentials: existing.map((c) => ({
        id: c.credential_id,
        transports: transportsOf(c.transports),
      })),
      // Resident keys make the passwordless sign-in possible; user verification when the device has it.
      authenticatorSelection: { residentKey: "required", userVerification: "preferred" },
      timeout: SIGN_IN_CHALLENGE_SECONDS * 1000,
    });
  }

  async add(userId: string, body: AddPasskeyRequest, rp: RelyingParty): Promise<PasskeyDto> {
    const response = body.response as RegistrationResponseJSON;
    const challenge = await this.takeChallenge(response.response.clientDataJSON, "register", userId);
    let verified: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
    try {
      verified = await verifyRegistrationResponse({
        response,
        expectedChallenge: challenge,
        expectedOrigin: rp.origin,
        expectedRPID: rp.rpId,
        requireUserVerification: false,
      });
    } catch (e) {
      this.log.info({ err: (e as Error).message }, "Passkey registration refused");
      throw invalidPasskey();
    }
    if (!verified.verified || !verified.registrationInfo) throw invalidPasskey();
    const { credential } = verified.registrationInfo;
    const taken = await this.db
      .selectFrom("user_passkeys")
      .select("id")
      .where("credential_id", "=", credential.id)
      .executeTakeFirst();
    if (taken) throw conflict("This passkey is already registered", "passkey_already_registered");
    const row = {
      id: randomUUID(),
      user_id: userId,
      credential_id: credential.id,
      public_key: Buffer.from(credential.publicKey).toString("base64url"),
      counter: credential.counter,
      transports: JSON.stringify(credential.transports ?? response.response.transports ?? []),
      name: body.name,
      created_at: nowIso(new Date(this.now())),
      last_used_at: null,
    };
    await this.db.insertInto("user_passkeys").values(row).execute();
    return toDto(row);
  }

  async rename(userId: string, id: string, name: string): Promise<PasskeyDto> {
    const row = await this.db
      .updateTable("user_passkeys")
      .set({ name })
      .where("id", "=", id)
      .where("user_id", "=", userId)
      .returning(["id", "name", "created_at", "last_used_at"])
      .executeTakeFirst();
    if (!row) throw passkeyNotFound();
    return toDto(row);
  }

  async remove(userId: string, id: string): Promise<void> {
    const gone = await this.db
      .deleteFrom("user_passkeys")
      .where("id", "=", id)
      .where("user_id", "=", userId)
      .executeTakeFirst();
    if (Number(gone.numDeletedRows) !== 1) throw passkeyNotFound();
  }

  // ---- signing in -------------------------------------------------------------

  /**
   * Options for navigator.credentials.get(): the account's passkeys when it is a second factor
   * (`userId`), any discoverable one of this site for a passwordless sign-in (null), which then
   * needs user verification.
   */
  async signInOptions(userId: string | null, rp: RelyingParty) {
    const allowed = userId === null ? [] : await this.credentialsOf(userId);
    if (userId !== null && allowed.length === 0) throw passkeyNotFound();
    return generateAuthenticationOptions({
      rpID: rp.rpId,
      challenge: await this.newChallenge(userId === null ? "sign_in" : "second_factor", userId),
      allowCredentials: allowed.map((c) => ({ id: c.credential_id, transports: transportsOf(c.transports) })),
      userVerification: userId === null ? "required" : "preferred",
      timeout: SIGN_IN_CHALLENGE_SECONDS * 1000,
    });
  }

  /**
   * Checks a signed challenge: of `userId`'s passkeys (second factor) or of whoever's passkey it
   * is (passwordless, `null`). Limited per account and address; the challenge is taken before
   * the signature is checked, so it is good for one try; the counter, when the authenticator
   * keeps one, must grow, and is stored by a guarded UPDATE. Answers the account.
   */
  async verifyAssertion(
    assertion: PasskeyAssertion,
    userId: string | null,
    rp: RelyingParty,
    clientIp: string,
  ): Promise<UserFields> {
    const response = assertion as AuthenticationResponseJSON;
    let query = this.db
      .selectFrom("user_passkeys")
      .select(["id", "user_id", "credential_id", "public_key", "counter", "transports", "name"])
      .where("credential_id", "=", response.id);
    if (userId !== null) query = query.where("user_id", "=", userId);
    const row: PasskeyRow | undefined = await query.executeTakeFirst();
    const subject = userId ?? row?.user_id;
    const target = subject ? secondFactorTarget(subject) : `passkey:${sha256Hex(response.id).slice(0, 32)}`;
    const purpose: Purpose = userId === null ? "sign_in" : "second_factor";
    const accepted = await this.rateLimiter.attempt(
      RATE_LIMITS.secondFactor,
      { clientIp, target, secret: response.response.signature },
      async () => {
        const challenge = await this.takeChallenge(response.response.clientDataJSON, purpose, userId);
        return row ? this.checkSignature(response, row, challenge, rp, userId === null) : false;
      },
    );
    if (!accepted || !row) throw invalidPasskey();
    const user = await this.db
      .selectFrom("users")
      .select(USER_FIELDS)
      .where("id", "=", row.user_id)
      .executeTakeFirst();
    if (!user) throw invalidPasskey();
    return user;
  }

  /** An administrator's reset, inside its transaction: the passkeys and their pending challenges go. */
  static async removeAll(trx: Db, userId: string): Promise<void> {
    await trx.deleteFrom("user_passkeys").where("user_id", "=", userId).execute();
    await trx.deleteFrom("webauthn_challenges").where("user_id", "=", userId).execute();
  }

  // ---- internals ----------------------------------------------------------------

  private async checkSignature(
    response: AuthenticationResponseJSON,
    row: PasskeyRow,
    challenge: string,
    rp: RelyingParty,
    passwordless: boolean,
  ): Promise<boolean> {
    // A passwordless sign-in names its account twice: the credential and the handle; they must agree.
    if (
      passwordless &&
      response.response.userHandle !== undefined &&
      response.response.userHandle !== userHandleOf(row.user_id).toString("base64url")
    ) {
      return false;
    }
    let result: Awaited<ReturnType<typeof verifyAuthenticationResponse>>;
    try {
      result = await verifyAuthenticationResponse({
        response,
        expectedChallenge: challenge,
        expectedOrigin: rp.origin,
        expectedRPID: rp.rpId,
        credential: {
          id: row.credential_id,
          publicKey: new Uint8Array(Buffer.from(row.public_key, "base64url")),
          counter: Number(row.counter),
          transports: transportsOf(row.transports),
        },
        requireUserVerification: passwordless,
      });
    } catch (e) {
      // A wrong origin, a counter that went back (a cloned authenticator), a malformed answer.
      this.log.info({ err: (e as Error).message, passkey: row.id }, "Passkey assertion refused");
      return false;
    }
    if (!result.verified) return false;
    const used = await this.db
      .updateTable("user_passkeys")
      .set({ counter: result.authenticationInfo.newCounter, last_used_at: nowIso(new Date(this.now())) })
      .where("id", "=", row.id)
      .where("counter", "=", Number(row.counter))
      .executeTakeFirst();
    return Number(used.numUpdatedRows) === 1;
  }

  private credentialsOf(userId: string) {
    return this.db
      .selectFrom("user_passkeys")
      .select(["credential_id", "transports"])
      .where("user_id", "=", userId)
      .execute();
  }

  /**
   * A fresh random challenge, stored as the hash of its base64url text (what clientDataJSON
   * carries back); expired ones go first.
   */
  private async newChallenge(purpose: Purpose, userId: string | null): Promise<Uint8Array<ArrayBuffer>> {
    const bytes = new Uint8Array(randomBytes(32));
    const challenge = Buffer.from(bytes).toString("base64url");
    const now = this.now();
    await this.db
      .deleteFrom("webauthn_challenges")
      .where("expires_at", "<=", nowIso(new Date(now)))
      .execute();
    await this.db
      .insertInto("webauthn_challenges")
      .values({
        challenge_hash: sha256Hex(challenge),
        purpose,
        user_id: userId,
        expires_at: new Date(now + SIGN_IN_CHALLENGE_SECONDS * 1000).toISOString(),
        created_at: nowIso(new Date(now)),
      })
      .execute();
    return bytes;
  }

  /**
   * The challenge the browser signed, taken by one guarded DELETE: it must be ours, for this
   * purpose and account, and unexpired; of two requests with one challenge, one gets it.
   */
  private async takeChallenge(
    clientDataJSON: string,
    purpose: Purpose,
    userId: string | null,
  ): Promise<string> {
    const challenge = signedChallenge(clientDataJSON);
    if (!challenge) throw challengeInvalid();
    let del = this.db
      .deleteFrom("webauthn_challenges")
      .where("challenge_hash", "=", sha256Hex(challenge))
      .where("purpose", "=", purpose)
      .where("expires_at", ">", nowIso(new Date(this.now())));
    del = userId === null ? del.where("user_id", "is", null) : del.where("user_id", "=", userId);
    const taken = await del.executeTakeFirst();
    if (Number(taken.numDeletedRows) !== 1) throw challengeInvalid();
    return challenge;
  }
}
