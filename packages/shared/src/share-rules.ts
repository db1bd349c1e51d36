/**
 * Limits and rules of text and file shares that forms check before calling the
 * server. Free of zod, so a page can use them without loading the schemas.
 */
import { SLUG_MAX_LENGTH, SLUG_PATTERN } from "./constants";

/** Largest paste body, in UTF-8 bytes. Bigger texts belong in a file share. */
export const PASTE_MAX_BYTES = 10 * 1024 * 1024;
export const REMARK_MAX = 1000;
export const SHARE_PASSWORD_MAX = 1024;
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

export function slugProblem(slug: string): string | null {
  if (slug.length === 0) return "Link suffix cannot be empty";
  if (slug.length > SLUG_MAX_LENGTH) return `Link suffix may be at most ${SLUG_MAX_LENGTH} characters`;
  if (!SLUG_PATTERN.test(slug))
    return "Invalid link suffix format; only letters, digits, hyphen (-) and underscore (_)";
  if ((RESERVED_SLUGS as readonly string[]).includes(slug.toLowerCase()))
    return `"${slug}" is a reserved word; choose another link suffix`;
  return null;
}
