/**
 * Second factors (docs/accounts.md#second-factors, decision 0066): TOTP (RFC 6238, through
 * otpauth) with ten one-time recovery codes, passkeys (passkey-service.ts), and the sign-in
 * challenge a correct password hands out when the account has one of them. Every code check goes through the database-backed
 * limiter, per account and per address, as passwords do.
 */
import { randomBytes } from "node:crypto";
import {
  type PasskeyAssertion,
  RECOVERY_CODE_COUNT,
  type RecoveryCodes,
  type SecondFactorChallenge,
  type SecondFactorStatus,
  SIGN_IN_CHALLENGE_SECONDS,
  TOTP_DIGITS,
  TOTP_ISSUER,
  TOTP_PERIOD_SECONDS,
  TOTP_WINDOW,
  type TotpSetup,
} from "@clipshare/shared";
import * as OTPAuth from "otpauth";
import { verifyPassword } from "../../auth/passwords";
import type { Principal } from "../../auth/principal";
import { accountTarget, RATE_LIMITS, type RateLimiter, secondFactorTarget } from "../../auth/rate-limiter";
import type { Db } from "../../db/database";
import { nowIso } from "../../db/database";
import { AppError, conflict, notFound } from "../../errors";
import { randomToken, type SecretBox, sha256Hex } from "../../lib/crypto";
import type { SettingsService } from "../settings/settings-service";
import { PasskeyService, type RelyingParty } from "./passkey-service";
import { USER_FIELDS, type UserFields } from "./principals";

/** Recovery codes: 10 characters without look-alikes (0/o, 1/l/i), about 49 bits each. */
const RECOVERY_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789";
const RECOVERY_CODE_LENGTH = 10;

const totpOf = (secret: OTPAuth.Secret, label: string) =>
  new OTPAuth.TOTP({
    issuer: TOTP_ISSUER,
    label,
    algorithm: "SHA1",
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
    secret,
  });

const isTotpCode = (code: string) => new RegExp(`^\\d{${TOTP_DIGITS}}$`).test(code);

/** Written in two groups for reading aloud; accepted with or without the dash, in any case. */
function newRecoveryCode(): string {
  const bytes = randomBytes(RECOVERY_CODE_LENGTH);
  let code = "";
  // 256 is not a multiple of 31: the small bias costs well under a bit of the ~49.
  for (const byte of bytes) code += RECOVERY_ALPHABET[byte % RECOVERY_ALPHABET.length];
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

/** Keyed by the user, so two users' codes never meet in the primary key. */
const recoveryHash = (userId: string, code: string) =>
  sha256Hex(`${userId}:${code.toLowerCase().replace(/[\s-]/g, "")}`);

const challengeInvalid = () =>
  new AppError(
    401,
    "sign_in_challenge_invalid",
    "This sign-in has expired or was already completed; enter your password again",
  );
/** What answers the sign-in challenge: a code, or a passkey's signature for this site. */
export type SignInProof = { code: string } | { passkey: PasskeyAssertion; rp: RelyingParty };

const wrongCode = () =>
  new AppError(401, "invalid_second_factor_code", "The code is wrong or was already used");

export class SecondFactorService {
  constructor(
    private readonly db: Db,
    private readonly secrets: SecretBox,
    private readonly rateLimiter: RateLimiter,
    private readonly passkeys: PasskeyService,
    private readonly settings: Pick<SettingsService, "getAll">,
    private readonly now: () => number = Date.now,
  ) {}

  async status(userId: string): Promise<SecondFactorStatus> {
    const totp = await this.confirmedTotp(userId);
    const left = await this.db
      .selectFrom("user_recovery_codes")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("user_id", "=", userId)
      .where("used_at", "is", null)
      .executeTakeFirstOrThrow();
    const passkeys = await this.passkeys.count(userId);
    // TOTP or a passkey, either one, is the second factor the setting asks of administrators.
    const enrolment_required =
      totp === undefined && passkeys === 0 && (await this.required()) && (await this.isAdmin(userId));
    return { totp: totp !== undefined, recovery_codes_left: Number(left.n), passkeys, enrolment_required };
  }

  /**
   * Whether `principal` is an administrator who must set up a second factor before anything
   * else (the "require a second factor for administrators" setting). API keys are credentials
   * of their own and are not held back (docs/accounts.md, decision 0088).
   */
  async enrolmentDue(principal: Principal): Promise<boolean> {
    if (principal.kind !== "admin") return false;
    if (!(await this.required())) return false;
    return !(await this.isDue(principal.adminId));
  }

  private async required(): Promise<boolean> {
    return (await this.settings.getAll()).require_admin_second_factor;
  }

  private async isAdmin(userId: string): Promise<boolean> {
    const row = await this.db.selectFrom("users").select("role").where("id", "=", userId).executeTakeFirst();
    return row?.role === "admin";
  }

  /** True when signing in takes a second step after the password: TOTP is on, or there is a passkey. */
  async isDue(userId: string): Promise<boolean> {
    return (await this.methodsOf(userId)).length > 0;
  }

  /** What the account can answer a sign-in challenge with. */
  private async methodsOf(userId: string): Promise<SecondFactorChallenge["methods"]> {
    const methods: SecondFactorChallenge["methods"] = [];
    if (await this.confirmedTotp(userId)) methods.push("totp", "recovery_code");
    if ((await this.passkeys.count(userId)) > 0) methods.push("passkey");
    return methods;
  }

  /**
   * A new secret to scan; it replaces an unconfirmed one and counts for nothing until
   * confirmTotp proves the app has it.
   */
  async startTotp(user: Pick<UserFields, "id" | "username">): Promise<TotpSetup> {
    if (await this.confirmedTotp(user.id)) {
      throw conflict("Two-factor sign-in is already on; turn it off first", "totp_already_enabled");
    }
    const secret = new OTPAuth.Secret({ size: 20 });
    const sealed = this.secrets.seal(secret.base32);
    await this.db
      .insertInto("user_totp")
      .values({
        user_id: user.id,
        secret_sealed: sealed,
        confirmed_at: null,
        last_step: null,
        created_at: nowIso(),
      })
      .onConflict((oc) => oc.column("user_id").doUpdateSet({ secret_sealed: sealed, created_at: nowIso() }))
      .execute();
    return { secret: secret.base32, otpauth_uri: totpOf(secret, user.username).toString() };
  }

  /** The first code proves the secret: TOTP is on, and ten recovery codes are made (shown once). */
  async confirmTotp(userId: string, code: string, clientIp: string): Promise<RecoveryCodes> {
    const row = await this.db
      .selectFrom("user_totp")
      .selectAll()
      .where("user_id", "=", userId)
      .executeTakeFirst();
    if (!row) throw conflict("Start setting up the authenticator app first", "totp_setup_missing");
    if (row.confirmed_at) {
      throw conflict("Two-factor sign-in is already on; turn it off first", "totp_already_enabled");
    }
    const ok = await this.limited(userId, clientIp, code, () =>
      this.acceptTotp(userId, row.secret_sealed, code, null),
    );
    if (!ok) throw wrongCode();
    await this.db
      .updateTable("user_totp")
      .set({ confirmed_at: nowIso() })
      .where("user_id", "=", userId)
      .execute();
    return { recovery_codes: await this.replaceRecoveryCodes(userId) };
  }

  /** Turning it off takes the password and a code (TOTP or recovery): a stolen session is not enough. */
  async disableTotp(userId: string, password: string, code: string, clientIp: string): Promise<void> {
    await this.confirmChange(userId, password, code, clientIp);
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom("user_totp").where("user_id", "=", userId).execute();
      await trx.deleteFrom("user_recovery_codes").where("user_id", "=", userId).execute();
    });
  }

  /** Ten new recovery codes in place of the old ones, confirmed like turning TOTP off. */
  async renewRecoveryCodes(
    userId: string,
    password: string,
    code: string,
    clientIp: string,
  ): Promise<RecoveryCodes> {
    await this.confirmChange(userId, password, code, clientIp);
    return { recovery_codes: await this.replaceRecoveryCodes(userId) };
  }

  /**
   * An administrator's reset, for a user who lost the phone and the codes: every second factor
   * and pending sign-in of the user go, and so do their sessions, in one transaction. The
   * password alone signs them in afterwards.
   */
  async reset(userId: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const user = await trx.selectFrom("users").select("id").where("id", "=", userId).executeTakeFirst();
      if (!user) throw notFound("User does not exist", "user_not_found");
      await trx.deleteFrom("user_totp").where("user_id", "=", userId).execute();
      await trx.deleteFrom("user_recovery_codes").where("user_id", "=", userId).execute();
      await trx.deleteFrom("sign_in_challenges").where("user_id", "=", userId).execute();
      await PasskeyService.removeAll(trx, userId);
      await trx.deleteFrom("sessions").where("user_id", "=", userId).execute();
    });
  }

  // ---- sign-in ---------------------------------------------------------------

  /** After a correct password: a single-use challenge, or null when the account has no second factor. */
  async challengeIfDue(user: UserFields): Promise<SecondFactorChallenge | null> {
    const methods = await this.methodsOf(user.id);
    if (methods.length === 0) return null;
    const token = randomToken(32);
    const now = this.now();
    const expiresAt = new Date(now + SIGN_IN_CHALLENGE_SECONDS * 1000).toISOString();
    await this.db
      .deleteFrom("sign_in_challenges")
      .where("expires_at", "<=", nowIso(new Date(now)))
      .execute();
    await this.db
      .insertInto("sign_in_challenges")
      .values({
        token_hash: sha256Hex(token),
        user_id: user.id,
        expires_at: expiresAt,
        created_at: nowIso(new Date(now)),
      })
      .execute();
    return { challenge: token, expires_at: expiresAt, methods };
  }

  /** The account a live sign-in challenge belongs to (a passkey's options are made for it). */
  async challengedUser(challenge: string): Promise<string> {
    const row = await this.db
      .selectFrom("sign_in_challenges")
      .select("user_id")
      .where("token_hash", "=", sha256Hex(challenge))
      .where("expires_at", ">", nowIso(new Date(this.now())))
      .executeTakeFirst();
    if (!row) throw challengeInvalid();
    return row.user_id;
  }

  /**
   * The second step: the code (or the passkey's signature) must be right for the challenge's
   * account, and the challenge is taken by one guarded DELETE, so of two requests racing with
   * right codes one signs in.
   */
  async completeSignIn(challenge: string, proof: SignInProof, clientIp: string): Promise<UserFields> {
    const hash = sha256Hex(challenge);
    const nowText = nowIso(new Date(this.now()));
    const userId = await this.challengedUser(challenge);
    if ("passkey" in proof) {
      await this.passkeys.verifyAssertion(proof.passkey, userId, proof.rp, clientIp);
    } else if (
      !(await this.limited(userId, clientIp, proof.code, () => this.acceptCode(userId, proof.code)))
    ) {
      throw wrongCode();
    }
    const taken = await this.db
      .deleteFrom("sign_in_challenges")
      .where("token_hash", "=", hash)
      .where("expires_at", ">", nowText)
      .executeTakeFirst();
    if (Number(taken.numDeletedRows) !== 1) throw challengeInvalid();
    const user = await this.db
      .selectFrom("users")
      .select(USER_FIELDS)
      .where("id", "=", userId)
      .executeTakeFirst();
    if (!user) throw challengeInvalid();
    return user;
  }

  // ---- checks ----------------------------------------------------------------

  private confirmedTotp(userId: string) {
    return this.db
      .selectFrom("user_totp")
      .select(["secret_sealed", "last_step"])
      .where("user_id", "=", userId)
      .where("confirmed_at", "is not", null)
      .executeTakeFirst();
  }

  /** Password (limited like sign-in) and then a code: what changing one's second factor takes. */
  private async confirmChange(
    userId: string,
    password: string,
    code: string,
    clientIp: string,
  ): Promise<void> {
    const user = await this.db
      .selectFrom("users")
      .select(["username", "password_hash"])
      .where("id", "=", userId)
      .executeTakeFirst();
    if (!user) throw notFound("User does not exist", "user_not_found");
    if (!(await this.confirmedTotp(userId)))
      throw conflict("Two-factor sign-in is not on", "totp_not_enabled");
    const passwordOk = await this.rateLimiter.attempt(
      RATE_LIMITS.adminLogin,
      { clientIp, target: accountTarget(user.username), secret: password },
      () => verifyPassword(password, user.password_hash),
    );
    if (!passwordOk) throw new AppError(401, "wrong_current_password", "Current password is wrong");
    if (!(await this.limited(userId, clientIp, code, () => this.acceptCode(userId, code)))) throw wrongCode();
  }

  private limited(userId: string, clientIp: string, code: string, verify: () => Promise<boolean>) {
    return this.rateLimiter.attempt(
      RATE_LIMITS.secondFactor,
      { clientIp, target: secondFactorTarget(userId), secret: code },
      verify,
    );
  }

  /** A TOTP code of the confirmed secret, or an unused recovery code (which is then used up). */
  private async acceptCode(userId: string, code: string): Promise<boolean> {
    if (isTotpCode(code)) {
      const totp = await this.confirmedTotp(userId);
      return totp ? this.acceptTotp(userId, totp.secret_sealed, code, totp.last_step) : false;
    }
    const used = await this.db
      .updateTable("user_recovery_codes")
      .set({ used_at: nowIso() })
      .where("code_hash", "=", recoveryHash(userId, code))
      .where("user_id", "=", userId)
      .where("used_at", "is", null)
      .executeTakeFirst();
    return Number(used.numUpdatedRows) === 1;
  }

  /**
   * A code within the window, for a later step than the last one accepted: the step is
   * recorded by a guarded UPDATE, so a code (even seen over a shoulder) works once.
   */
  private async acceptTotp(
    userId: string,
    sealed: string,
    code: string,
    lastStep: number | null,
  ): Promise<boolean> {
    if (!isTotpCode(code)) return false;
    const totp = totpOf(OTPAuth.Secret.fromBase32(this.secrets.open(sealed)), "");
    const timestamp = this.now();
    const delta = totp.validate({ token: code, timestamp, window: TOTP_WINDOW });
    if (delta === null) return false;
    const step = totp.counter({ timestamp }) + delta;
    if (lastStep !== null && step <= lastStep) return false;
    const result = await this.db
      .updateTable("user_totp")
      .set({ last_step: step })
      .where("user_id", "=", userId)
      .where((eb) => eb.or([eb("last_step", "is", null), eb("last_step", "<", step)]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  private async replaceRecoveryCodes(userId: string): Promise<string[]> {
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
    const now = nowIso();
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom("user_recovery_codes").where("user_id", "=", userId).execute();
      await trx
        .insertInto("user_recovery_codes")
        .values(
          codes.map((code) => ({
            code_hash: recoveryHash(userId, code),
            user_id: userId,
            used_at: null,
            created_at: now,
          })),
        )
        .execute();
    });
    return codes;
  }
}
