/**
 * Text pastes: creation, visitor views with atomic view counting, password
 * protection, and owner management. Visitor rules:
 * - a view counts only when content is delivered to a visitor; the creator,
 *   the admin, HEAD requests and link-preview bots never count;
 * - counting is one conditional UPDATE, so with max_views = N exactly N
 *   concurrent viewers succeed and the rest get 410.
 */
import { randomUUID } from "node:crypto";
import {
  type CreatedPaste,
  type createPasteRequest,
  isSealedText,
  PASTE_MAX_BYTES,
  type PasteDetail,
  type PasteListRow,
  type PasteView,
  type PasteVisit,
  type updatePasteRequest,
} from "@clipshare/shared";
import type { ExpressionBuilder } from "kysely";
import type { z } from "zod";
import { createdByKey, ownership, whereOwned } from "../../auth/creator";
import { hashPassword } from "../../auth/passwords";
import type { Principal } from "../../auth/principal";
import type { RateLimiter } from "../../auth/rate-limiter";
import type { Db } from "../../db/database";
import { nowIso } from "../../db/database";
import type { Database, PasteRow } from "../../db/schema";
import { containsPattern, countMatching } from "../../db/sql-helpers";
import { AppError, badRequest, payloadTooLarge } from "../../errors";
import type { ShareAccessTokens } from "../shares/access-tokens";
import {
  isLastView,
  newSlug,
  type PasswordAttempt,
  remainingViews,
  ShareAccess,
  shareState,
} from "../shares/share-access";
import type { ShareEvents } from "../shares/share-events";

type CreateInput = z.output<typeof createPasteRequest>;
type UpdateInput = z.output<typeof updatePasteRequest>;

const PREVIEW_CHARS = 200;

export const PASTE_MESSAGES = {
  notFound: "Paste does not exist or has expired",
  notOwned: "Paste does not exist or no access",
  notOwnedAdmin: "Paste does not exist or no access",
  expired: "Paste has expired or exceeded its maximum views",
  viewLimit: "Paste has reached its maximum views",
  slugTaken: "Link suffix already taken, try another",
  wrongPassword: "Incorrect password",
  passwordRequired: "Password required to access this content",
  passwordNotRequired: "This paste does not need a password",
} as const;

/** Used up or expired (list filter, "clear expired"). */
function deadPaste(eb: ExpressionBuilder<Database, "pastes">, now: string) {
  return eb.or([
    eb.and([eb("pastes.expires_at", "is not", null), eb("pastes.expires_at", "<=", now)]),
    eb.and([eb("pastes.max_views", "is not", null), eb("pastes.views", ">=", eb.ref("pastes.max_views"))]),
  ]);
}

/** What visitors (and owners) get for a paste. */
export function presentPaste(
  row: PasteRow,
  options: { withContent: boolean; isLastView?: boolean },
): PasteView {
  return {
    id: row.id,
    slug: row.slug,
    ...(options.withContent ? { content: row.content } : {}),
    remark: row.remark,
    expires_at: row.expires_at,
    max_views: row.max_views,
    views: row.views,
    remaining_views: remainingViews(row),
    created_at: row.created_at,
    updated_at: row.updated_at,
    created_by: row.created_by,
    has_password: row.password_hash !== null,
    requires_password: row.password_hash !== null && !options.withContent,
    is_last_view: options.isLastView ?? false,
    encrypted: row.encrypted === 1,
  };
}

/** The admin/owner list row (no full content: lists stay light). */
function presentListRow(
  row: PasteRow & { key_name?: string | null; owner_name?: string | null },
): PasteListRow {
  const encrypted = row.encrypted === 1;
  const preview = encrypted
    ? ""
    : row.content.length > PREVIEW_CHARS
      ? `${row.content.slice(0, PREVIEW_CHARS)}...`
      : row.content;
  const state = shareState(row);
  return {
    id: row.id,
    slug: row.slug,
    remark: row.remark,
    has_password: row.password_hash !== null,
    expires_at: row.expires_at,
    max_views: row.max_views,
    views: row.views,
    view_count: row.views,
    remaining_views: remainingViews(row),
    is_expired: state !== "ok",
    state,
    created_by: row.created_by,
    key_name: row.key_name ?? null,
    owner_id: row.owner_id,
    owner_name: row.owner_name ?? null,
    content_preview: preview,
    content_length: row.content.length,
    encrypted,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export interface ListPastesQuery {
  limit: number;
  offset: number;
  search?: string;
  createdBy?: string;
  /** Administrators: only this user's pastes. */
  ownerId?: string;
  /** true: only expired or used up; false: only live ones. */
  expired?: boolean;
}

export class PasteService {
  private readonly access: ShareAccess<PasteRow>;

  constructor(
    private readonly db: Db,
    rateLimiter: RateLimiter,
    accessTokens: ShareAccessTokens,
    events?: ShareEvents,
  ) {
    this.access = new ShareAccess(
      db,
      rateLimiter,
      accessTokens,
      { kind: "paste", table: "pastes", messages: PASTE_MESSAGES, hasStatus: false },
      events,
    );
  }

  async create(principal: Principal, input: CreateInput): Promise<CreatedPaste> {
    assertContentSize(input.content);
    if (input.encrypted) assertEncryptedInput(input.content, input.password);
    const expiresAt = input.expires_at ?? null;
    if (expiresAt !== null && expiresAt <= nowIso())
      throw badRequest("Expiry time must be in the future", "invalid_expiry");
    const maxViews = input.max_views ?? null;
    const now = nowIso();
    const row: PasteRow = {
      id: randomUUID(),
      slug: input.slug ?? newSlug(),
      content: input.content,
      remark: input.remark || null,
      password_hash: input.password ? await hashPassword(input.password) : null,
      expires_at: expiresAt,
      max_views: maxViews,
      views: 0,
      encrypted: input.encrypted ? 1 : 0,
      ...ownership(principal),
      created_at: now,
      updated_at: now,
      no_log: input.no_log ? 1 : 0,
    };
    await this.access.insert(row, input.slug !== undefined);
    return {
      id: row.id,
      slug: row.slug,
      url: `/paste/${row.slug}`,
      remark: row.remark,
      expires_at: row.expires_at,
      max_views: row.max_views,
      has_password: row.password_hash !== null,
      encrypted: row.encrypted === 1,
      created_at: row.created_at,
      authorized_by: principal.kind === "apiKey" ? "apikey" : principal.kind === "admin" ? "admin" : "user",
    };
  }

  /**
   * A visitor opens a paste. Owners, HEAD requests and link-preview bots only
   * peek (metadata and, for owners, content) without counting. `delivered` is
   * the row when the content went to a visitor (what the access log records).
   */
  async view(
    principal: Principal,
    slug: string,
    options: { countView: boolean },
  ): Promise<{ visit: PasteVisit; delivered: PasteRow | null }> {
    const { row, grant } = await this.access.open(principal, slug, options);
    if (grant === "metadata") return { visit: presentPaste(row, { withContent: false }), delivered: null };
    const visit = presentPaste(row, { withContent: true, isLastView: grant === "view" && isLastView(row) });
    return { visit, delivered: grant === "view" ? row : null };
  }

  /** POST /paste/:slug {password}: verifies (rate-limited per IP and slug), counts a view, returns an access token. */
  async unlock(
    principal: Principal,
    attempt: PasswordAttempt,
  ): Promise<{ visit: PasteVisit; delivered: PasteRow | null }> {
    const { row, owner } = await this.access.unlock(principal, attempt);
    const visit = {
      ...presentPaste(row, { withContent: true, isLastView: !owner && isLastView(row) }),
      access_token: this.access.issueToken(row),
    };
    return { visit, delivered: owner ? null : row };
  }

  /**
   * GET /raw/:slug. A valid access token means the view was already counted
   * when the password was entered; ?password= counts a view like POST does.
   * `visitor`: the content went to someone other than its owner.
   */
  async raw(
    principal: Principal,
    slug: string,
    credentials: { password?: string; token?: string },
    options: { countView: boolean; clientIp: string },
  ): Promise<{ row: PasteRow; content: string | null; visitor: boolean }> {
    if (options.countView && principal.kind === "anonymous") {
      // Fast path: one conditional UPDATE both checks and counts.
      const counted = await this.access.countView({ unprotectedSlug: slug, readableOnly: true });
      if (counted) return { row: counted, content: counted.content, visitor: true };
    }
    const row = await this.access.findBySlug(slug);
    if (row.encrypted === 1) throw encryptedPasteError(ENCRYPTED_MESSAGES.raw);
    if (this.access.isOwner(principal, row)) return { row, content: row.content, visitor: false };
    this.access.assertLive(row);
    if (row.password_hash !== null && this.access.tokenValid(row, credentials.token))
      return { row, content: row.content, visitor: true };
    await this.access.requirePassword(row, credentials.password, options.clientIp);
    if (!options.countView) return { row, content: null, visitor: false };
    const counted = await this.access.countViewOrGone(row);
    return { row: counted, content: counted.content, visitor: true };
  }

  async list(principal: Principal, query: ListPastesQuery) {
    const now = nowIso();
    let base = this.db.selectFrom("pastes");
    if (principal.kind !== "admin") base = whereOwned(base, "pastes", principal);
    else {
      if (query.createdBy) base = base.where("pastes.created_by", "=", query.createdBy);
      if (query.ownerId) base = base.where("pastes.owner_id", "=", query.ownerId);
    }
    if (query.search) {
      const pattern = containsPattern(query.search);
      base = base.where((eb) =>
        eb.or([
          eb("pastes.slug", "like", pattern),
          eb("pastes.remark", "like", pattern),
          // Ciphertext says nothing: encrypted pastes are found by slug and remark only.
          eb.and([eb("pastes.encrypted", "=", 0), eb("pastes.content", "like", pattern)]),
        ]),
      );
    }
    if (query.expired !== undefined)
      base = base.where((eb) => (query.expired ? deadPaste(eb, now) : eb.not(deadPaste(eb, now))));
    const total = await countMatching(base);
    const rows = await base
      .leftJoin("api_keys", (join) => join.on(createdByKey("pastes.created_by")))
      .leftJoin("users", "users.id", "pastes.owner_id")
      .selectAll("pastes")
      .select(["api_keys.name as key_name", "users.username as owner_name"])
      .orderBy("pastes.created_at", "desc")
      .orderBy("pastes.id")
      .limit(query.limit)
      .offset(query.offset)
      .execute();
    return { items: rows.map(presentListRow), total };
  }

  /** A paste the principal created (the admin: any); 404 otherwise. */
  owned(principal: Principal, idOrSlug: string): Promise<PasteRow> {
    return this.access.findOwned(principal, idOrSlug);
  }

  async getForOwner(principal: Principal, idOrSlug: string): Promise<PasteDetail> {
    const row = await this.access.findOwned(principal, idOrSlug);
    return { ...presentListRow(row), content: row.content, ...presentPaste(row, { withContent: true }) };
  }

  async update(principal: Principal, idOrSlug: string, input: UpdateInput): Promise<PasteListRow> {
    const row = await this.access.findOwned(principal, idOrSlug);
    const patch: Partial<PasteRow> = { updated_at: nowIso() };
    // The server cannot re-encrypt, and a server password would not protect ciphertext it never opens.
    if (row.encrypted === 1 && input.content !== undefined)
      throw encryptedPasteError(ENCRYPTED_MESSAGES.edit);
    if (row.encrypted === 1 && input.password) throw encryptedPasteError(ENCRYPTED_MESSAGES.password, 400);
    if (input.content !== undefined) {
      assertContentSize(input.content);
      patch.content = input.content;
    }
    if (input.remark !== undefined) patch.remark = input.remark || null;
    if (input.no_log !== undefined) patch.no_log = input.no_log ? 1 : 0;
    if (input.clear_password) patch.password_hash = null;
    else if (input.password) patch.password_hash = await hashPassword(input.password);
    const expiresAt = input.expires_at;
    if (expiresAt !== undefined) {
      if (expiresAt !== null && expiresAt <= nowIso())
        throw badRequest("Expiry time must be in the future", "invalid_expiry");
      patch.expires_at = expiresAt;
    }
    const maxViews = input.max_views;
    // A new content or a new view limit starts counting afresh (0.7.3 behaviour).
    if (maxViews !== undefined) patch.max_views = maxViews;
    if (maxViews !== undefined || input.content !== undefined) patch.views = 0;
    const randomSlug = input.new_slug === "" || input.new_slug === null;
    if (input.new_slug !== undefined) patch.slug = randomSlug ? newSlug() : (input.new_slug as string);
    await this.access.update(row.id, patch);
    const updated = { ...row, ...patch } as PasteRow;
    return presentListRow(updated);
  }

  async deleteMany(principal: Principal, ids: string[]): Promise<number> {
    const query = this.db
      .deleteFrom("pastes")
      .where((eb) => eb.or([eb("id", "in", ids), eb("slug", "in", ids)]));
    const result = await whereOwned(query, null, principal).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** Removes expired and used-up pastes (all for the admin, own ones for a key). */
  async clearExpired(principal: Principal): Promise<number> {
    const query = this.db.deleteFrom("pastes").where((eb) => deadPaste(eb, nowIso()));
    const result = await whereOwned(query, null, principal).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}

export const ENCRYPTED_MESSAGES = {
  raw: "This paste is end-to-end encrypted: there is no raw text, open its full link (the key is in the link and never reaches the server)",
  edit: "An end-to-end encrypted paste cannot be edited: the server cannot read or re-encrypt it. Create a new paste instead",
  password:
    "An end-to-end encrypted paste takes its password when it is created, in the browser; the server keeps none",
  notSealed: "Encrypted paste content must be a ClipShare encrypted stream (base64url)",
} as const;

function encryptedPasteError(message: string, status: 400 | 409 = 409) {
  return new AppError(status, "encrypted_paste", message);
}

/** Guards against a client that sets the flag but sends plaintext, and against a server password. */
function assertEncryptedInput(content: string, password: string | null | undefined): void {
  if (password) throw encryptedPasteError(ENCRYPTED_MESSAGES.password, 400);
  if (!isSealedText(content)) throw encryptedPasteError(ENCRYPTED_MESSAGES.notSealed, 400);
}

function assertContentSize(content: string): void {
  if (Buffer.byteLength(content, "utf8") > PASTE_MAX_BYTES) {
    throw payloadTooLarge(`Content too large (max ${PASTE_MAX_BYTES / 1024 / 1024} MB)`);
  }
}
