import { PASTE_MAX_BYTES, parseMaxViews, shareOptionProblems } from "@clipshare/shared";
import type { CreatePasteBody, PasteDetail, UpdatePasteBody } from "../pastes/api";

/**
 * The share options of every web form (Home, the upload page and its URL tab,
 * the explorer's share dialog, the paste and file share edit dialogs), checked
 * by one rule set (`shareOptionFieldProblems`, the shared `shareOptionProblems`),
 * and the text share form itself (create on Home, edit in the admin panel):
 * values, validation and request bodies. Pure, so it is unit-tested without a
 * DOM. Free of zod: the shared schemas run last, from schema-check.ts, which
 * forms load when they submit.
 */

export const EXPIRY_UNITS = ["never", "hours", "days", "weeks", "months"] as const;
export type ExpiryUnit = (typeof EXPIRY_UNITS)[number];
/** Editing also offers to keep the current expiry. */
export type EditExpiryUnit = ExpiryUnit | "keep";

/** Largest number accepted next to an expiry unit. */
export const EXPIRY_AMOUNT_MAX = 9999;

export interface ShareFormValues {
  remark: string;
  slug: string;
  password: string;
  expiryUnit: ExpiryUnit;
  expiryAmount: string;
  /** "" or "0" = unlimited. */
  maxViews: string;
  /** The share's visits are counted but not written to its access log. */
  noLog?: boolean;
}

export type PasswordAction = "keep" | "set" | "clear";

export interface EditFormValues {
  content: string;
  remark: string;
  slug: string;
  passwordAction: PasswordAction;
  password: string;
  expiryUnit: EditExpiryUnit;
  expiryAmount: string;
  maxViews: string;
}

export type FieldProblem = "required" | "invalid" | "tooLong" | "tooLarge" | "reserved" | "taken";

export interface ShareFormErrors {
  content?: FieldProblem;
  remark?: FieldProblem;
  slug?: FieldProblem;
  password?: FieldProblem;
  expiryAmount?: FieldProblem;
  maxViews?: FieldProblem;
  /** A rule of the shared schema the checks above do not name (its English message). */
  other?: string;
}

export function emptyShareForm(): ShareFormValues {
  return { remark: "", slug: "", password: "", expiryUnit: "never", expiryAmount: "1", maxViews: "0" };
}

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

/** Calendar months in UTC; the 31st plus one month is the last day of the shorter month. */
function addMonths(from: number, months: number): number {
  const d = new Date(from);
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, lastDay));
  return d.getTime();
}

export function parseWholeNumber(raw: string): number | null {
  const text = raw.trim();
  if (!/^\d+$/.test(text)) return null;
  const n = Number(text);
  return Number.isSafeInteger(n) ? n : null;
}

/**
 * The expiry an option stands for: an ISO time, null for "never", or
 * undefined for "keep" (and for an amount that is not a valid number).
 */
export function expiresAtFor(
  unit: EditExpiryUnit,
  amount: string,
  now = Date.now(),
): string | null | undefined {
  if (unit === "keep") return undefined;
  if (unit === "never") return null;
  const n = parseWholeNumber(amount);
  if (n === null || n < 1 || n > EXPIRY_AMOUNT_MAX) return undefined;
  switch (unit) {
    case "hours":
      return new Date(now + n * HOUR_MS).toISOString();
    case "days":
      return new Date(now + n * DAY_MS).toISOString();
    case "weeks":
      return new Date(now + n * 7 * DAY_MS).toISOString();
    case "months":
      return new Date(addMonths(now, n)).toISOString();
  }
}

export function utf8Length(text: string): number {
  return new TextEncoder().encode(text).length;
}

/** A quick over-estimate first: most texts are far below the limit. */
export function isContentTooLarge(content: string): boolean {
  if (content.length * 3 <= PASTE_MAX_BYTES) return false;
  return utf8Length(content) > PASTE_MAX_BYTES;
}

/** The share-option fields as the forms name them. */
export interface ShareOptionFieldValues {
  remark?: string;
  slug?: string;
  password?: string;
  maxViews?: string;
}
export type ShareOptionFieldErrors = Partial<Record<keyof ShareOptionFieldValues, FieldProblem>>;

/** What is wrong with a form's share options: the shared rules, under the forms' field names. */
export function shareOptionFieldProblems(values: ShareOptionFieldValues): ShareOptionFieldErrors {
  const { max_views, ...rest } = shareOptionProblems({
    remark: values.remark,
    slug: values.slug,
    password: values.password,
    max_views: values.maxViews,
  });
  return { ...rest, ...(max_views ? { maxViews: max_views } : {}) };
}

function expiryProblem(unit: EditExpiryUnit, amount: string): FieldProblem | undefined {
  if (unit === "keep" || unit === "never") return undefined;
  if (amount.trim() === "") return "required";
  const n = parseWholeNumber(amount);
  return n === null || n < 1 || n > EXPIRY_AMOUNT_MAX ? "invalid" : undefined;
}

function contentProblem(content: string): FieldProblem | undefined {
  if (content.trim() === "") return "required";
  return isContentTooLarge(content) ? "tooLarge" : undefined;
}

function commonProblems(values: {
  remark: string;
  slug: string;
  expiryUnit: EditExpiryUnit;
  expiryAmount: string;
  maxViews: string;
}): ShareFormErrors {
  const errors: ShareFormErrors = shareOptionFieldProblems(values);
  const expiry = expiryProblem(values.expiryUnit, values.expiryAmount);
  if (expiry) errors.expiryAmount = expiry;
  return errors;
}

export function hasErrors(errors: ShareFormErrors): boolean {
  return Object.values(errors).some(Boolean);
}

export function createBody(content: string, values: ShareFormValues, now = Date.now()): CreatePasteBody {
  const body: CreatePasteBody = { content };
  const remark = values.remark.trim();
  if (remark) body.remark = remark;
  const slug = values.slug.trim();
  if (slug) body.slug = slug;
  if (values.password) body.password = values.password;
  const expiresAt = expiresAtFor(values.expiryUnit, values.expiryAmount, now);
  if (expiresAt) body.expires_at = expiresAt;
  const maxViews = parseMaxViews(values.maxViews);
  if (maxViews) body.max_views = maxViews;
  if (values.noLog) body.no_log = true;
  return body;
}

export function validateShareForm(content: string, values: ShareFormValues): ShareFormErrors {
  const errors = { ...commonProblems(values), ...shareOptionFieldProblems({ password: values.password }) };
  const c = contentProblem(content);
  if (c) errors.content = c;
  return errors;
}

// --- Editing --------------------------------------------------------------

export function editFormFrom(detail: PasteDetail): EditFormValues {
  return {
    content: detail.content,
    remark: detail.remark ?? "",
    slug: detail.slug,
    passwordAction: "keep",
    password: "",
    expiryUnit: "keep",
    expiryAmount: "1",
    maxViews: String(detail.max_views ?? 0),
  };
}

/** Only what changed: a new content or view limit restarts the view count on the server. */
export function updateBody(detail: PasteDetail, values: EditFormValues, now = Date.now()): UpdatePasteBody {
  const body: UpdatePasteBody = {};
  if (values.content !== detail.content) body.content = values.content;
  const remark = values.remark.trim();
  if (remark !== (detail.remark ?? "")) body.remark = remark;
  const slug = values.slug.trim();
  if (slug !== detail.slug) body.new_slug = slug;
  if (values.passwordAction === "set" && values.password) body.password = values.password;
  if (values.passwordAction === "clear") body.clear_password = true;
  const expiresAt = expiresAtFor(values.expiryUnit, values.expiryAmount, now);
  if (expiresAt !== undefined) body.expires_at = expiresAt;
  const maxViews = parseMaxViews(values.maxViews) ?? 0;
  if (maxViews !== (detail.max_views ?? 0)) body.max_views = maxViews;
  return body;
}

export function validateEditForm(values: EditFormValues): ShareFormErrors {
  const errors = commonProblems(values);
  const c = contentProblem(values.content);
  if (c) errors.content = c;
  if (!values.slug.trim()) errors.slug = "required";
  if (values.passwordAction === "set") {
    const password = values.password
      ? shareOptionFieldProblems({ password: values.password }).password
      : "required";
    if (password) errors.password = password;
  }
  return errors;
}
