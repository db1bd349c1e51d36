import {
  BASE_PATH_MAX,
  CUSTOM_KEY_MAX,
  CUSTOM_KEY_MIN,
  CUSTOM_KEY_PATTERN,
  DEFAULT_BASE_PATH,
  DEFAULT_KEY_ROLE,
  KEY_NAME_MAX,
  KEY_ROLES,
  type KeyRole,
  normalizeBasePath,
  Permission,
} from "@clipshare/shared";
import type { ApiKeyRow, CreateApiKeyBody, UpdateApiKeyBody } from "./api/api-keys";

/**
 * The API-key form: values, validation and the request bodies.
 * Pure, so it is unit-tested without a DOM.
 */

export const EXPIRY_CHOICES = ["1d", "7d", "30d", "never", "custom"] as const;
export type ExpiryChoice = (typeof EXPIRY_CHOICES)[number];
/** Editing also offers to keep the current expiry. */
export type EditExpiryChoice = ExpiryChoice | "keep";

export interface KeyFormValues {
  name: string;
  permissions: number;
  role: KeyRole;
  useCustomKey: boolean;
  customKey: string;
  basePath: string;
  expiry: EditExpiryChoice;
  customDays: string;
  isGuest: boolean;
}

export type KeyFormErrors = Partial<
  Record<"name" | "customKey" | "customDays" | "basePath", "required" | "invalid" | "tooShort" | "tooLong">
>;

export function emptyKeyForm(): KeyFormValues {
  return {
    name: "",
    permissions: Permission.TEXT,
    role: DEFAULT_KEY_ROLE,
    useCustomKey: false,
    customKey: "",
    basePath: DEFAULT_BASE_PATH,
    expiry: "7d",
    customDays: "",
    isGuest: false,
  };
}

export function formFromRow(row: ApiKeyRow): KeyFormValues {
  const role = (KEY_ROLES as readonly string[]).includes(row.role) ? (row.role as KeyRole) : DEFAULT_KEY_ROLE;
  return {
    name: row.name,
    permissions: row.permissions,
    role,
    useCustomKey: false,
    customKey: "",
    basePath: row.basic_path || DEFAULT_BASE_PATH,
    expiry: "keep",
    customDays: "",
    isGuest: row.is_guest === 1 || row.is_guest === true,
  };
}

export function validateKeyForm(values: KeyFormValues, mode: "create" | "edit"): KeyFormErrors {
  const errors: KeyFormErrors = {};
  const name = values.name.trim();
  if (!name) errors.name = "required";
  else if (name.length > KEY_NAME_MAX) errors.name = "tooLong";
  if (mode === "create" && values.useCustomKey) {
    const key = values.customKey.trim();
    if (!key) errors.customKey = "required";
    else if (!CUSTOM_KEY_PATTERN.test(key)) errors.customKey = "invalid";
    else if (key.length < CUSTOM_KEY_MIN) errors.customKey = "tooShort";
    else if (key.length > CUSTOM_KEY_MAX) errors.customKey = "tooLong";
  }
  if (values.expiry === "custom") {
    const raw = values.customDays.trim();
    const days = Number(raw);
    if (!raw) errors.customDays = "required";
    else if (!Number.isInteger(days) || days < 1 || days > 36500) errors.customDays = "invalid";
  }
  const basePath = values.basePath.trim();
  if (!basePath) errors.basePath = "required";
  else if (!basePath.startsWith("/") || basePath.split("/").some((s) => s === "." || s === "..")) {
    errors.basePath = "invalid";
  } else if (basePath.length > BASE_PATH_MAX) errors.basePath = "tooLong";
  return errors;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** The `expires_at` value for a choice: an ISO time, "never", or undefined to keep the current one. */
export function expiresAtFor(
  choice: EditExpiryChoice,
  customDays: string,
  now = Date.now(),
): string | undefined {
  switch (choice) {
    case "keep":
      return undefined;
    case "never":
      return "never";
    case "1d":
      return new Date(now + DAY_MS).toISOString();
    case "7d":
      return new Date(now + 7 * DAY_MS).toISOString();
    case "30d":
      return new Date(now + 30 * DAY_MS).toISOString();
    case "custom":
      return new Date(now + Number(customDays.trim()) * DAY_MS).toISOString();
  }
}

export function createBody(values: KeyFormValues, now = Date.now()): CreateApiKeyBody {
  const body: CreateApiKeyBody = {
    name: values.name.trim(),
    permissions: values.permissions,
    role: values.role,
    basic_path: normalizeBasePath(values.basePath),
    is_guest: values.isGuest ? 1 : 0,
  };
  const expires = expiresAtFor(values.expiry === "keep" ? "7d" : values.expiry, values.customDays, now);
  if (expires) body.expires_at = expires;
  if (values.useCustomKey) body.custom_key = values.customKey.trim();
  return body;
}

export function updateBody(values: KeyFormValues, now = Date.now()): UpdateApiKeyBody {
  const body: UpdateApiKeyBody = {
    name: values.name.trim(),
    permissions: values.permissions,
    role: values.role,
    basic_path: normalizeBasePath(values.basePath),
    is_guest: values.isGuest ? 1 : 0,
  };
  const expires = expiresAtFor(values.expiry, values.customDays, now);
  if (expires) body.expires_at = expires;
  return body;
}

/** "Never" is stored as a far-future time (year 9999) or null. */
export function isNeverExpiring(expiresAt: string | null | undefined): boolean {
  if (!expiresAt) return true;
  const t = Date.parse(expiresAt);
  return Number.isNaN(t) || new Date(t).getUTCFullYear() >= 9999;
}

export function isExpired(expiresAt: string | null | undefined, now = Date.now()): boolean {
  if (isNeverExpiring(expiresAt)) return false;
  return Date.parse(expiresAt!) <= now;
}
