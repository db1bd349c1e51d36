import {
  ADMIN_PASSWORD_MIN,
  DEFAULT_USER_PERMISSIONS,
  INVITATION_DEFAULT_HOURS,
  INVITATION_MAX_HOURS,
  normalizeBasePath,
  ROLE_PERMISSIONS,
  type Role,
  USERNAME_PATTERN,
  type UserDto,
} from "@clipshare/shared";
import type { InvitationBody, UserBody } from "../../lib/accounts/users-api";

/**
 * The user form (create, edit) and the invitation form: values, validation, request bodies.
 * Pure, so it is unit-tested without a DOM.
 */

export type UserFormMode = "create" | "edit" | "invite";

export interface UserFormValues {
  username: string;
  password: string;
  displayName: string;
  email: string;
  role: Role;
  permissions: number;
  basePath: string;
  disabled: boolean;
  note: string;
  hours: string;
  /** The total quota in MB; empty: no limit. */
  quotaMb: string;
}

export type UserFormErrors = Partial<
  Record<"username" | "password" | "basePath" | "hours" | "quotaMb", "invalid" | "tooShort">
>;

const MB = 1024 * 1024;

/** MB as typed (empty: no limit) → bytes, or undefined when it is not a number. */
export function quotaBytesOf(quotaMb: string): number | null | undefined {
  const text = quotaMb.trim();
  if (text === "") return null;
  const mb = Number(text);
  return Number.isFinite(mb) && mb >= 0 ? Math.round(mb * MB) : undefined;
}

const mbOf = (bytes: number | null) => (bytes === null ? "" : String(Math.round((bytes / MB) * 100) / 100));

export function emptyUserForm(): UserFormValues {
  return {
    username: "",
    password: "",
    displayName: "",
    email: "",
    role: "user",
    permissions: DEFAULT_USER_PERMISSIONS,
    basePath: "/",
    disabled: false,
    note: "",
    hours: String(INVITATION_DEFAULT_HOURS),
    quotaMb: "",
  };
}

export function formFromUser(user: UserDto): UserFormValues {
  return {
    ...emptyUserForm(),
    username: user.username,
    displayName: user.display_name ?? "",
    email: user.email ?? "",
    role: user.role,
    permissions: user.role === "admin" ? DEFAULT_USER_PERMISSIONS : user.permissions,
    basePath: user.base_path,
    disabled: user.disabled,
    quotaMb: mbOf(user.quota_bytes),
  };
}

/** The bits the role may hold: what the permission boxes offer. */
export const offeredPermissions = (role: Role): number => ROLE_PERMISSIONS[role];

export function validateUserForm(v: UserFormValues, mode: UserFormMode): UserFormErrors {
  const errors: UserFormErrors = {};
  if (mode === "create" && !USERNAME_PATTERN.test(v.username.trim())) errors.username = "invalid";
  if (mode === "create" || v.password) {
    if (v.password.length < ADMIN_PASSWORD_MIN) errors.password = "tooShort";
  }
  if (v.role !== "admin" && !v.basePath.trim().startsWith("/")) errors.basePath = "invalid";
  if (mode !== "invite" && quotaBytesOf(v.quotaMb) === undefined) errors.quotaMb = "invalid";
  if (mode === "invite") {
    const hours = Number(v.hours);
    if (!Number.isInteger(hours) || hours < 1 || hours > INVITATION_MAX_HOURS) errors.hours = "invalid";
  }
  return errors;
}

const grantOf = (v: UserFormValues) =>
  v.role === "admin"
    ? {}
    : {
        permissions: v.permissions & offeredPermissions(v.role),
        base_path: normalizeBasePath(v.basePath.trim()),
      };

export function createBody(v: UserFormValues): UserBody {
  return {
    username: v.username.trim(),
    password: v.password,
    display_name: v.displayName.trim() || null,
    email: v.email.trim() || null,
    role: v.role,
    ...grantOf(v),
    quota_bytes: quotaBytesOf(v.quotaMb) ?? null,
  };
}

/** Only what changed, so an untouched field never overwrites a change made meanwhile. */
export function updateBody(v: UserFormValues, initial: UserFormValues): UserBody {
  const body: UserBody = {};
  if (v.displayName.trim() !== initial.displayName.trim()) body.display_name = v.displayName.trim() || null;
  if (v.email.trim() !== initial.email.trim()) body.email = v.email.trim() || null;
  if (v.role !== initial.role) body.role = v.role;
  if (v.disabled !== initial.disabled) body.disabled = v.disabled;
  if (v.password) body.password = v.password;
  if (v.quotaMb.trim() !== initial.quotaMb.trim()) body.quota_bytes = quotaBytesOf(v.quotaMb) ?? null;
  if (v.role !== "admin") {
    const grant = grantOf(v);
    if (v.role !== initial.role || grant.permissions !== initial.permissions)
      body.permissions = grant.permissions;
    if (v.role !== initial.role || grant.base_path !== normalizeBasePath(initial.basePath))
      body.base_path = grant.base_path;
  }
  return body;
}

export function invitationBody(v: UserFormValues): InvitationBody {
  return {
    role: v.role,
    permissions: v.role === "admin" ? 0 : v.permissions & offeredPermissions(v.role),
    base_path: v.role === "admin" ? "/" : normalizeBasePath(v.basePath.trim()),
    ...(v.note.trim() ? { note: v.note.trim() } : {}),
    expires_in_hours: Number(v.hours),
  };
}
