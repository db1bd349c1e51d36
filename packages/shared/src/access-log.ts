/**
 * The share access log's wire contract: what a logged access is called, the
 * coarse client families, the list, export and dashboard answers.
 */
import { z } from "zod";
import { onFirstUse } from "./schemas/on-first-use";

/** How a share (or a public mount file) was reached; `zip`: a folder or selection as a ZIP. Stable ids: stored, exported and translated by clients. */
export const ACCESS_KINDS = ["page_view", "raw", "download", "preview", "presigned_redirect", "zip"] as const;
export type AccessKind = (typeof ACCESS_KINDS)[number];

/** Browser families of the client description; `bot` and `cli` for crawlers and command-line tools. */
export const CLIENT_BROWSERS = [
  "chrome",
  "edge",
  "firefox",
  "safari",
  "opera",
  "samsung",
  "bot",
  "cli",
  "other",
  "unknown",
] as const;
export type ClientBrowser = (typeof CLIENT_BROWSERS)[number];

export const CLIENT_OSES = [
  "windows",
  "macos",
  "ios",
  "android",
  "linux",
  "chromeos",
  "other",
  "unknown",
] as const;
export type ClientOs = (typeof CLIENT_OSES)[number];

/**
 * Whether a share's accesses are being logged: `on`, `share_off` (the share's
 * own "no log" switch) or `privacy_mode` (the server keeps counts only).
 */
export const ACCESS_LOGGING_STATES = ["on", "share_off", "privacy_mode"] as const;
export type AccessLoggingState = (typeof ACCESS_LOGGING_STATES)[number];

/** Default and largest page of GET …/access-log. */
export const ACCESS_LOG_DEFAULT_LIMIT = 50;
export const ACCESS_LOG_MAX_LIMIT = 200;

export const accessLogQuery = onFirstUse(() =>
  z.object({
    limit: z.coerce.number().int().min(1).max(ACCESS_LOG_MAX_LIMIT).optional(),
    offset: z.coerce.number().int().min(0).optional(),
  }),
);

export const accessLogEntry = onFirstUse(() =>
  z.strictObject({
    id: z.string(),
    /** ISO time of the access. */
    at: z.string(),
    kind: z.enum(ACCESS_KINDS),
    /** Body bytes sent; null where unknown (a redirect to storage, URLs handed out). */
    bytes: z.number().nullable(),
    browser: z.enum(CLIENT_BROWSERS),
    os: z.enum(CLIENT_OSES),
    /** Only while IP logging is on. */
    ip: z.string().nullable(),
    /** A mount's log (visitors' downloads): the file or folder, as a virtual path; null for shares. */
    path: z.string().nullable(),
  }),
);
export type AccessLogEntry = z.infer<typeof accessLogEntry>;

/** GET /pastes/:id/access-log and /files/:id/access-log: newest first. */
export const accessLogPage = onFirstUse(() =>
  z.strictObject({
    logging: z.enum(ACCESS_LOGGING_STATES),
    ip_logging: z.boolean(),
    entries: z.array(accessLogEntry),
    pagination: z.strictObject({
      total: z.number(),
      limit: z.number(),
      offset: z.number(),
      hasMore: z.boolean(),
    }),
  }),
);
export type AccessLogPage = z.infer<typeof accessLogPage>;

/** GET /admin/dashboard/access-log: the last ACCESS_SUMMARY_DAYS days. */
export const ACCESS_SUMMARY_DAYS = 7;
export const ACCESS_SUMMARY_TOP = 5;

export const accessSummary = onFirstUse(() =>
  z.strictObject({
    days: z.number(),
    total: z.number(),
    by_kind: z.strictObject(
      Object.fromEntries(ACCESS_KINDS.map((k) => [k, z.number()])) as Record<AccessKind, z.ZodNumber>,
    ),
    top: z.array(
      z.strictObject({
        share_type: z.enum(["paste", "file"]),
        id: z.string(),
        slug: z.string(),
        /** The file name of a file share; null for pastes. */
        name: z.string().nullable(),
        accesses: z.number(),
      }),
    ),
    privacy_mode: z.boolean(),
  }),
);
export type AccessSummary = z.infer<typeof accessSummary>;
