/**
 * Authorization rules shared by every transport. Default deny: each helper
 * throws unless the principal is explicitly allowed.
 */
import {
  hasAnyPermission,
  hasPermission,
  isPathWithinBase,
  PERMISSION_LABELS,
  Permission,
  type PermissionName,
} from "@clipshare/shared";
import { AppError, forbidden } from "../errors";
import { accountIdOf, grantOf, type Principal } from "./principal";

/** 401 carrying why authentication failed, so clients can react (the web app logs out on token_expired). */
export function authenticationRequired(principal: Principal): AppError {
  const failure = principal.kind === "anonymous" ? principal.authFailure : undefined;
  if (failure === "token_expired")
    return new AppError(401, "token_expired", "Admin token is invalid or has expired");
  if (failure === "api_key_invalid")
    return new AppError(401, "api_key_invalid", "API key is invalid or has expired");
  if (failure === "invalid_credentials")
    return new AppError(401, "invalid_credentials", "Invalid credentials");
  if (failure === "basic_not_accepted")
    return new AppError(
      401,
      "basic_auth_not_accepted",
      "HTTP Basic authentication is accepted only by WebDAV (/dav); send Authorization: Bearer <admin token> (from POST /api/admin/login) or ApiKey <key>",
    );
  if (failure === "second_factor_password")
    return new AppError(
      401,
      "password_needs_second_factor",
      "This account signs in with a second factor, so WebDAV does not take its password; use an app password (My account) or an API key as the password",
    );
  if (failure === "second_factor_enrolment") return secondFactorEnrolmentRequired();
  return new AppError(401, "unauthorized", "Authentication required");
}

export const secondFactorEnrolmentRequired = () =>
  new AppError(
    403,
    "second_factor_enrolment_required",
    "Administrators must use two-factor sign-in here: set up an authenticator app or a passkey in My account first",
  );

export function requireAuthenticated(
  principal: Principal,
): asserts principal is Exclude<Principal, { kind: "anonymous" }> {
  if (principal.kind === "anonymous") throw authenticationRequired(principal);
}

export function requireAdmin(
  principal: Principal,
): asserts principal is Extract<Principal, { kind: "admin" }> {
  requireAuthenticated(principal);
  if (principal.kind !== "admin") throw forbidden("Administrator permission required", "admin_required");
}

export function missingPermissionMessage(required: number): string {
  const names = (Object.keys(Permission) as PermissionName[])
    .filter((name) => (required & Permission[name]) !== 0)
    .map((name) => `${PERMISSION_LABELS[name]} permission`);
  return `The following permissions are required: ${names.join(", ")}`;
}

/**
 * A user signing in for themselves (a session, not an API key): managing their account and
 * their keys is theirs alone.
 */
export function requireAccount(
  principal: Principal,
): asserts principal is Extract<Principal, { kind: "admin" | "user" }> {
  requireAuthenticated(principal);
  if (principal.kind === "apiKey")
    throw forbidden("Sign in with your account for this (an API key cannot do it)", "account_required");
}

/** The id of the account signing in for itself (requireAccount's check, then its id). */
export function ownAccountId(principal: Principal): string {
  requireAccount(principal);
  return accountIdOf(principal)!;
}

/** Admin, or a user or API key whose grant holds every bit of `required`. */
export function requirePermission(principal: Principal, required: number): void {
  requireAuthenticated(principal);
  const grant = grantOf(principal);
  if (grant === "all") return;
  if (!grant || !hasPermission(grant.permissions, required)) {
    throw forbidden(missingPermissionMessage(required), "permission_denied");
  }
}

/** Admin, or a user or API key whose grant holds at least one bit of `anyOf`. */
export function requireAnyPermission(principal: Principal, anyOf: number): void {
  requireAuthenticated(principal);
  const grant = grantOf(principal);
  if (grant === "all") return;
  if (!grant || !hasAnyPermission(grant.permissions, anyOf)) {
    throw forbidden(missingPermissionMessage(anyOf), "permission_denied");
  }
}

/** Base-path rule: a grant covers its base path and what lies below it; admins may use every path. */
export function canAccessPath(principal: Principal, path: string): boolean {
  const grant = grantOf(principal);
  if (grant === "all") return true;
  return grant !== null && isPathWithinBase(grant.basePath, path);
}
