import { z } from "zod";

/** What the paste API answers in `data`. */

const nullableString = z.string().nullable();

/** ok: live; expired: past its expiry; view_limit: every allowed view used. */
export const SHARE_STATES = ["ok", "expired", "view_limit"] as const;
export type ShareState = (typeof SHARE_STATES)[number];

/**
 * POST /paste. The answers below are in the one spelling used inside; the
 * server adds 0.7.3's camelCase copies at its edge (server/src/http/wire-aliases.ts).
 */
export const createdPaste = z.strictObject({
  id: z.string(),
  slug: z.string(),
  url: z.string(),
  remark: nullableString,
  expires_at: nullableString,
  max_views: z.number().nullable(),
  has_password: z.boolean(),
  /** End-to-end encrypted: content is ciphertext only the link's key opens. */
  encrypted: z.boolean(),
  created_at: z.string(),
  authorized_by: z.enum(["admin", "apikey", "user"]),
});
export type CreatedPaste = z.infer<typeof createdPaste>;

/** A paste as visitors (and owners) see it; `content` is absent while a password is needed. */
export const pasteView = z.strictObject({
  id: z.string(),
  slug: z.string(),
  content: z.string().optional(),
  remark: nullableString,
  expires_at: nullableString,
  max_views: z.number().nullable(),
  views: z.number(),
  remaining_views: z.number().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  created_by: z.string(),
  has_password: z.boolean(),
  requires_password: z.boolean(),
  is_last_view: z.boolean(),
  encrypted: z.boolean(),
});
export type PasteView = z.infer<typeof pasteView>;

/**
 * GET /paste/:slug and POST /paste/:slug: the view, plus (once the content is
 * given) an access token that opens /raw/:slug for a while without the password.
 */
export const pasteVisit = pasteView.extend({ access_token: z.string().optional() });
export type PasteVisit = z.infer<typeof pasteVisit>;

/** A row of GET /pastes: the content shortened to a preview, lists stay light. */
export const pasteListRow = z.strictObject({
  id: z.string(),
  slug: z.string(),
  remark: nullableString,
  has_password: z.boolean(),
  expires_at: nullableString,
  max_views: z.number().nullable(),
  views: z.number(),
  view_count: z.number(),
  remaining_views: z.number().nullable(),
  is_expired: z.boolean(),
  state: z.enum(SHARE_STATES),
  created_by: z.string(),
  key_name: nullableString,
  /** The user the paste belongs to, and their name. */
  owner_id: nullableString,
  owner_name: nullableString,
  /** Empty for an encrypted paste: its content is ciphertext. */
  content_preview: z.string(),
  content_length: z.number(),
  encrypted: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type PasteListRow = z.infer<typeof pasteListRow>;

/** GET /pastes/:id and PUT /pastes/:id: the list row with the whole content, and the view fields. */
export const pasteDetail = pasteListRow.extend({ ...pasteView.shape, content: z.string() });
export type PasteDetail = z.infer<typeof pasteDetail>;

/** The `pagination` beside `data` of the list routes. */
export const pagination = z.strictObject({
  total: z.number(),
  limit: z.number(),
  offset: z.number(),
  page: z.number(),
  totalPages: z.number(),
  hasMore: z.boolean(),
});
export type Pagination = z.infer<typeof pagination>;

/** The `pagination` inside `data` of the file share, file request, collection and delivery lists. */
export const listPagination = z.strictObject({
  total: z.number(),
  limit: z.number(),
  offset: z.number(),
  hasMore: z.boolean(),
});

/** A password-protected share (file, collection) before its password: only what the prompt needs. */
export const lockedShare = z.strictObject({
  slug: z.string(),
  requires_password: z.literal(true),
  has_password: z.literal(true),
  expires_at: nullableString,
  views: z.number(),
  max_views: z.number().nullable(),
  remaining_views: z.number().nullable(),
});
