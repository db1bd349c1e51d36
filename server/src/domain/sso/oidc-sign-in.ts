/**
 * Signing in through the OpenID Connect provider: the authorization code flow with PKCE, state
 * and nonce (openid-client). A sign-in under way lives in `sso_flows`, so the provider may send
 * the person back to any instance; the browser carries the state in a cookie too, which binds
 * the sign-in to the browser that started it. The callback hands the web app a one-time code
 * that it trades for a session exactly like a password sign-in's.
 */

import type { AdminLogin } from "@clipshare/shared";
import * as oidc from "openid-client";
import { RATE_LIMITS, type RateLimiter } from "../../auth/rate-limiter";
import type { Db } from "../../db/database";
import { nowIso } from "../../db/database";
import { AppError, isAppError } from "../../errors";
import { constantTimeEqual, randomToken, sha256Hex } from "../../lib/crypto";
import type { SafeFetcher } from "../../lib/net/safe-fetch";
import type { Logger } from "../../logger";
import { type AccountService, accountDisabled, type SignInContext } from "../users/account-service";
import { USER_FIELDS } from "../users/principals";
import type { UserService } from "../users/user-service";
import { safeOidcFetch } from "./oidc-fetch";
import { type Claims, SsoIdentities } from "./sso-identity";
import type { ActiveProvider, SsoSettingsService } from "./sso-settings";

/** How long the provider may take to send the person back. */
export const SSO_FLOW_TTL_MS = 10 * 60_000;
/** How long the web app has to trade the hand-off code for a session. */
const HANDOFF_TTL_MS = 60_000;
/** A discovery document is fetched again after this long (or when the settings change). */
const DISCOVERY_TTL_MS = 5 * 60_000;

const stateInvalid = () =>
  new AppError(400, "sso_state_invalid", "This sign-in attempt is invalid or expired; start again");
const notConfigured = () => new AppError(404, "sso_not_configured", "Single sign-on is not set up");
const failed = (why: string) =>
  new AppError(502, "sso_failed", `Single sign-on failed: ${why}`.slice(0, 500));

export class OidcSignIn {
  private readonly identities: SsoIdentities;
  /** The provider's discovered configuration: a cache of this process, rebuilt from the database. */
  private discovered: { version: string; at: number; config: Promise<oidc.Configuration> } | null = null;

  constructor(
    private readonly db: Db,
    private readonly settings: SsoSettingsService,
    private readonly accounts: AccountService,
    users: Pick<UserService, "update">,
    private readonly rateLimiter: RateLimiter,
    private readonly fetcher: SafeFetcher,
    private readonly log: Logger,
  ) {
    this.identities = new SsoIdentities(db, users, log);
  }

  /** The provider's authorization URL for a new sign-in, and the state the browser keeps. */
  async start(redirectUri: string): Promise<{ url: string; state: string }> {
    const provider = await this.provider();
    const config = await this.configuration(provider);
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const verifier = oidc.randomPKCECodeVerifier();
    const now = Date.now();
    await this.db
      .deleteFrom("sso_flows")
      .where("expires_at", "<=", nowIso(new Date(now)))
      .execute();
    await this.db
      .insertInto("sso_flows")
      .values({
        state_hash: sha256Hex(state),
        nonce,
        code_verifier: verifier,
        user_id: null,
        handoff_hash: null,
        expires_at: nowIso(new Date(now + SSO_FLOW_TTL_MS)),
      })
      .execute();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: provider.scopes,
      response_type: "code",
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
      state,
      nonce,
    });
    return { url: url.href, state };
  }

  /**
   * The provider sent the person back to `currentUrl`: checks state (against the browser's
   * cookie and the stored flow, which is used once), the code with its PKCE verifier, the ID
   * token with its nonce, then finds or makes the user. Returns the one-time hand-off code.
   */
  async callback(currentUrl: URL, cookieState: string | undefined, clientIp: string): Promise<string> {
    const state = currentUrl.searchParams.get("state") ?? "";
    const flow = await this.rateLimiter.attemptCountingFailures(
      RATE_LIMITS.ssoCode,
      { clientIp },
      async () => {
        if (!state || !cookieState || !constantTimeEqual(state, cookieState)) return null;
        const taken = await this.db
          .deleteFrom("sso_flows")
          .where("state_hash", "=", sha256Hex(state))
          .where("handoff_hash", "is", null)
          .returningAll()
          .executeTakeFirst();
        return taken && taken.expires_at > nowIso() ? taken : null;
      },
    );
    if (!flow) throw stateInvalid();
    const providerError = currentUrl.searchParams.get("error");
    if (providerError) {
      throw new AppError(
        401,
        "sso_denied",
        `Sign-in was cancelled or refused at the provider (${providerError})`.slice(0, 300),
      );
    }
    const provider = await this.provider();
    const config = await this.configuration(provider);
    let claims: Claims;
    try {
      const tokens = await oidc.authorizationCodeGrant(config, currentUrl, {
        pkceCodeVerifier: flow.code_verifier,
        expectedState: state,
        expectedNonce: flow.nonce,
        idTokenExpected: true,
      });
      const idClaims = tokens.claims() as Claims & { sub: string };
      claims = idClaims;
      if (config.serverMetadata().userinfo_endpoint && tokens.access_token) {
        // Many providers put e-mail and groups only in userinfo; its subject must be the token's.
        const info = await oidc.fetchUserInfo(config, tokens.access_token, idClaims.sub);
        claims = { ...info, ...idClaims };
      }
    } catch (e) {
      if (isAppError(e)) throw e;
      this.log.warn({ err: e }, "Single sign-on: the provider's answer was refused");
      throw failed((e as Error).message || "the provider's answer could not be checked");
    }
    const user = await this.identities.resolve(
      provider,
      config.serverMetadata().issuer,
      String(claims.sub),
      claims,
    );
    const code = randomToken(32);
    await this.db
      .insertInto("sso_flows")
      .values({
        state_hash: sha256Hex(randomToken(32)),
        nonce: "",
        code_verifier: "",
        user_id: user.id,
        handoff_hash: sha256Hex(code),
        expires_at: nowIso(new Date(Date.now() + HANDOFF_TTL_MS)),
      })
      .execute();
    return code;
  }

  /** The web app trades the hand-off code (once) for a session, as a password sign-in makes. */
  async exchange(code: string, from: SignInContext): Promise<AdminLogin> {
    const userId = await this.rateLimiter.attemptCountingFailures(
      RATE_LIMITS.ssoCode,
      { clientIp: from.clientIp },
      async () => {
        const taken = await this.db
          .deleteFrom("sso_flows")
          .where("handoff_hash", "=", sha256Hex(code))
          .returning(["user_id", "expires_at"])
          .executeTakeFirst();
        return taken?.user_id && taken.expires_at > nowIso() ? taken.user_id : null;
      },
    );
    if (!userId) throw stateInvalid();
    const user = await this.db
      .selectFrom("users")
      .select(USER_FIELDS)
      .where("id", "=", userId)
      .executeTakeFirst();
    if (!user) throw stateInvalid();
    if (user.disabled === 1) throw accountDisabled();
    return this.accounts.startSession(user, from);
  }

  private async provider(): Promise<ActiveProvider> {
    const provider = await this.settings.active();
    if (!provider) throw notConfigured();
    return provider;
  }

  private configuration(provider: ActiveProvider): Promise<oidc.Configuration> {
    const cached = this.discovered;
    if (cached && cached.version === provider.version && Date.now() - cached.at < DISCOVERY_TTL_MS)
      return cached.config;
    const insecure = new URL(provider.issuerUrl).protocol === "http:";
    const config = oidc
      .discovery(
        new URL(provider.issuerUrl),
        provider.clientId,
        provider.clientSecret ?? undefined,
        provider.clientSecret ? undefined : oidc.None(),
        {
          [oidc.customFetch]: safeOidcFetch(this.fetcher),
          // An http:// issuer is the administrator's choice (a provider on their own network).
          ...(insecure ? { execute: [oidc.allowInsecureRequests] } : {}),
        },
      )
      .catch((e: unknown) => {
        if (this.discovered?.config === config) this.discovered = null;
        if (isAppError(e)) throw e;
        throw failed(`the provider's discovery document could not be read (${(e as Error).message})`);
      });
    this.discovered = { version: provider.version, at: Date.now(), config };
    return config;
  }
}
