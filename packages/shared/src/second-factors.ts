/**
 * Second factors (docs/accounts.md#second-factors): the TOTP parameters every authenticator app
 * understands (RFC 6238 defaults) and the recovery codes' shape, shared by the server (which
 * checks them) and the web app (which shows and asks for them).
 */
export const TOTP_DIGITS = 6;
export const TOTP_PERIOD_SECONDS = 30;
/** Codes of the step before and after are accepted too: phones' clocks drift. */
export const TOTP_WINDOW = 1;
/** The name authenticator apps show above the account. */
export const TOTP_ISSUER = "ClipShare";
export const RECOVERY_CODE_COUNT = 10;
/** A sign-in challenge (what a correct password hands out when a code is due) lives this long. */
export const SIGN_IN_CHALLENGE_SECONDS = 300;
