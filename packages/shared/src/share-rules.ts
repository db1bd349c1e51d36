/**
 * Limits and rules of text and file shares that forms check before calling the
 * server. Free of zod, so a page can use them without loading the schemas.
 */
import { SLUG_MAX_LENGTH, SLUG_PATTERN } from "./constants";

/** Largest paste body, in UTF-8 bytes. Bigger texts belong in a file share. */
export const PASTE_MAX_BYTES = 10 * 1024 * 1024;
export const REMARK_MAX = 1000;
export const SHARE_PASSWORD_MAX = 1024;
/** Upload expiry choices of the upload form, in hours (0 = never). */
export const UPLOAD_EXPIRY_HOURS = [1, 24, 24 * 7, 24 * 30, 0] as const;
/**
 * The remark a share made from the explorer gets unless one is given, as 0.7.3 wrote it (clients
 * read it). The web app shows it translated.
 */
export const explorerShareRemark = (path: string) => `From file system: ${path}`;

/** Largest view limit: what a 32-bit signed column holds on every database. 0 means no limit. */
export const MAX_VIEWS_MAX = 2_147_483_647;
/** The one text for a view limit out of range, on every create and edit path. */
export const MAX_VIEWS_PROBLEM = `Max views must be a whole number from 0 to ${MAX_VIEWS_MAX}`;

/**
 * A typed view limit as a number: blank is 0 (no limit); null when it is not a
 * whole number from 0 to MAX_VIEWS_MAX. Every form and the CLI read the field
 * with this, the server with the schema's maxViewsInput: the same bound.
 */
export function parseMaxViews(raw: string): number | null {
  const text = raw.trim();
  if (text === "") return 0;
  if (!/^\d+$/.test(text)) return null;
  const n = Number(text);
  return n <= MAX_VIEWS_MAX ? n : null;
}

/**
 * Slugs that would shadow an app route or read as a system word. Compared
 * case-insensitively.
 */
export const RESERVED_SLUGS = [
  "api",
  "admin",
  "raw",
  "paste",
  "pastes",
  "file",
  "files",
  "upload",
  "uploads",
  "mount-explorer",
  "dav",
  "webdav",
  "assets",
  "static",
  "public",
  "share",
  "shares",
  "login",
  "logout",
  "settings",
  "config",
  "health",
  "version",
  "index",
  "favicon",
  "robots",
  "manifest",
  "sw",
  "p",
  "s",
  "null",
  "undefined",
] as const;

/** Why a link suffix is refused, as a code the forms translate. */
export type SlugProblem = "required" | "tooLong" | "invalid" | "reserved";

export function slugProblemCode(slug: string): SlugProblem | null {
  if (slug.length === 0) return "required";
  if (slug.length > SLUG_MAX_LENGTH) return "tooLong";
  if (!SLUG_PATTERN.test(slug)) return "invalid";
  if ((RESERVED_SLUGS as readonly string[]).includes(slug.toLowerCase())) return "reserved";
  return null;
}

/** The server's (and the CLI's) text for a refused link suffix. */
export function slugProblem(slug: string): string | null {
  switch (slugProblemCode(slug)) {
    case null:
      return null;
    case "required":
      return "Link suffix cannot be empty";
    case "tooLong":
      return `Link suffix may be at most ${SLUG_MAX_LENGTH} characters`;
    case "invalid":
      return "Invalid link suffix format; only letters, digits, hyphen (-) and underscore (_)";
    case "reserved":
      return `"${slug}" is a reserved word; choose another link suffix`;
  }
}

export const REMARK_PROBLEM = `Remark may be at most ${REMARK_MAX} characters`;
export const SHARE_PASSWORD_PROBLEM = `Password may be at most ${SHARE_PASSWORD_MAX} characters`;

/**
 * The share options every share carries (pastes and file shares, created or
 * edited, from every form, route and the CLI), in the one spelling used
 * inside: remark, slug, password, an expiry, max_views and no_log (access
 * logging off). The zod schema of the same fields is `shareOptions`
 * (schemas/share-options.ts); forms and the CLI check typed values with
 * `shareOptionProblems` below, by the same limits.
 */
/** Share options as typed into a form or on a command line; a blank field is not set. */
export interface ShareOptionsText {
  remark?: string;
  slug?: string;
  password?: string;
  max_views?: string;
}

export type ShareOptionProblem = SlugProblem;
export type ShareOptionProblems = Partial<Record<keyof ShareOptionsText, ShareOptionProblem>>;

/**
 * What is wrong with typed share options, field by field, by the rules the
 * server's schema applies: the remark and password within their lengths, the
 * link suffix by `slugProblemCode`, max views by `parseMaxViews`. The remark is
 * counted trimmed (as it is sent), the password as typed.
 */
export function shareOptionProblems(values: ShareOptionsText): ShareOptionProblems {
  const problems: ShareOptionProblems = {};
  if ((values.remark ?? "").trim().length > REMARK_MAX) problems.remark = "tooLong";
  const slug = (values.slug ?? "").trim();
  const slugCode = slug ? slugProblemCode(slug) : null;
  if (slugCode) problems.slug = slugCode;
  if ((values.password ?? "").length > SHARE_PASSWORD_MAX) problems.password = "tooLong";
  if (values.max_views !== undefined && parseMaxViews(values.max_views) === null)
    problems.max_views = "invalid";
  return problems;
}

/** The English text of a share-option problem (the CLI's and the server's wording). */
export function shareOptionProblemText(field: keyof ShareOptionsText, values: ShareOptionsText): string {
  switch (field) {
    case "remark":
      return REMARK_PROBLEM;
    case "password":
      return SHARE_PASSWORD_PROBLEM;
    case "max_views":
      return MAX_VIEWS_PROBLEM;
    case "slug":
      return slugProblem((values.slug ?? "").trim()) ?? "";
  }
}
