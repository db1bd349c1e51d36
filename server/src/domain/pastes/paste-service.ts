/**
 * Text pastes: creation, visitor views with atomic view counting, password
 * protection, and owner management. Visitor rules:
 * - a view counts only when content is delivered to a visitor; the creator,
 *   the admin, HEAD requests and link-preview bots never count;
 * - counting is one conditional UPDATE, so with max_views = N exactly N
 *   concurrent viewers succeed and the rest get 410.
 */
import { randomUUID } from "node:crypto";
import { type createPasteRequest, PASTE_MAX_BYTES, type updatePasteRequest } from "@clipshare/shared";
import { type Expression, type ExpressionBuilder, type SqlBool, sql } from "kysely";
import type { z } from "zod";
import { checkSharePassword, hashPassword } from "../../auth/passwords";
import { isCreator } from "../../auth/policy";
import { creatorIdOf, type Principal } from "../../auth/principal";
import type { RateLimiter } from "../../auth/rate-limiter";
import type { Db } from "../../db/database";
import { nowIso } from "../../db/database";
import type { Database, PasteRow } from "../../db/schema";
import { AppError, badRequest, conflict, gone, notFound, payloadTooLarge } from "../../errors";
import { randomBase62 } from "../../lib/crypto";
import { metrics } from "../../lib/metrics";
import type { ShareAccessTokens } from "../../lib/share-access-token";
import { isUniqueViolation } from "../api-keys/api-key-service";

type CreateInput = z.output<typeof createPasteRequest>;
type UpdateInput = z.output<typeof updatePasteRequest>;

const RANDOM_SLUG_LENGTH = 10;
const PREVIEW_CHARS = 200;

export const PASTE_MESSAGES = {
  notFound: "Paste does not exist or has expired",
  expired: "Paste has expired or exceeded its maximum views",
  viewLimit: "Paste has reached its maximum views",
  slugTaken: "Link suffix already taken, try another",
  wrongPassword: "Incorrect password",
  passwordRequired: "Password required to access this content",
} as const;

export type PasteState = "ok" | "expired" | "view_limit";

export function pasteState(
  row: Pick<PasteRow, "expires_at" | "max_views" | "views">,
  now = nowIso(),
): PasteState {
  if (row.expires_at !== null && row.expires_at <= now) return "expired";
  if (row.max_views !== null && row.views >= row.max_views) return "view_limit";
  return "ok";
}

export function goneError(state: Exclude<PasteState, "ok">): AppError {
  return state === "expired"
    ? gone(PASTE_MESSAGES.expired, "paste_expired")
    : gone(PASTE_MESSAGES.viewLimit, "paste_view_limit");
}

/** What visitors (and owners) get for a paste. */
export function presentPaste(row: PasteRow, options: { withContent: boolean; isLastView?: boolean }) {
  return {
    id: row.id,
    slug: row.slug,
    ...(options.withContent ? { content: row.content } : {}),
    remark: row.remark,
    expiresAt: row.expires_at,
    maxViews: row.max_views,
    views: row.views,
    remainingViews: row.max_views === null ? null : Math.max(0, row.max_views - row.views),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    created_by: row.created_by,
    hasPassword: row.password_hash !== null,
    requiresPassword: row.password_hash !== null && !options.withContent,
    isLastView: options.isLastView ?? false,
  };
}

/** The admin/owner list row (no full content: lists stay light). */
function presentListRow(row: PasteRow & { key_name?: string | null }) {
  const preview =
    row.content.length > PREVIEW_CHARS ? `${row.content.slice(0, PREVIEW_CHARS)}...` : row.content;
  const state = pasteState(row);
  return {
    id: row.id,
    slug: row.slug,
    remark: row.remark,
    has_password: row.password_hash !== null,
    expires_at: row.expires_at,
    max_views: row.max_views,
    views: row.views,
    view_count: row.views,
    remaining_views: row.max_views === null ? null : Math.max(0, row.max_views - row.views),
    is_expired: state !== "ok",
    state,
    created_by: row.created_by,
    key_name: row.key_name ?? null,
    content_preview: preview,
    content_length: row.content.length,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export interface ListPastesQuery {
  limit: number;
  offset: number;
  search?: string;
  createdBy?: string;
  /** true: only expired or used up; false: only live ones. */
  expired?: boolean;
}

export class PasteService {
  constructor(
    private readonly db: Db,
    private readonly rateLimiter: RateLimiter,
    private readonly accessTokens: ShareAccessTokens,
  ) {}

  async create(principal: Principal, input: CreateInput) {
    assertContentSize(input.content);
    const expiresAt = pickDefined(input.expiresAt, input.expires_at) ?? null;
    if (expiresAt !== null && expiresAt <= nowIso())
      throw badRequest("Expiry time must be in the future", "invalid_expiry");
    const maxViews = pickDefined(input.maxViews, input.max_views) ?? null;
    const now = nowIso();
    const row: PasteRow = {
      id: randomUUID(),
      slug: input.slug ?? randomBase62(RANDOM_SLUG_LENGTH),
      content: input.content,
      remark: input.remark || null,
      password_hash: input.password ? await hashPassword(input.password) : null,
      expires_at: expiresAt,
      max_views: maxViews,
      views: 0,
      created_by: creatorIdOf(principal),
      created_at: now,
      updated_at: now,
    };
    await this.insertWithSlug(row, input.slug === undefined);
    return {
      id: row.id,
      slug: row.slug,
      url: `/paste/${row.slug}`,
      remark: row.remark,
      expiresAt: row.expires_at,
      maxViews: row.max_views,
      hasPassword: row.password_hash !== null,
      createdAt: row.created_at,
      authorizedBy: principal.kind === "admin" ? "admin" : "apikey",
    };
  }

  /**
   * A visitor opens a paste. Owners, HEAD requests and link-preview bots only
   * peek (metadata and, for owners, content) without counting.
   */
  async view(principal: Principal, slug: string, options: { countView: boolean }) {
    if (options.countView && principal.kind === "anonymous") {
      // Fast path: one conditional UPDATE both checks and counts.
      const counted = await this.countView((eb) =>
        eb.and([eb("slug", "=", slug), eb("password_hash", "is", null)]),
      );
      if (counted) return presentPaste(counted, { withContent: true, isLastView: isLast(counted) });
    }
    const row = await this.findBySlug(slug);
    if (!row) throw notFound(PASTE_MESSAGES.notFound, "paste_not_found");
    const owner = principal.kind !== "anonymous" && isCreator(principal, row.created_by);
    if (owner) return presentPaste(row, { withContent: true });
    const state = pasteState(row);
    if (state !== "ok") throw goneError(state);
    if (row.password_hash !== null || !options.countView) return presentPaste(row, { withContent: false });
    const counted = await this.countView((eb) => eb("id", "=", row.id));
    // Lost the race for the last view (or expired meanwhile).
    if (!counted) throw goneError(pasteState(row) === "expired" ? "expired" : "view_limit");
    return presentPaste(counted, { withContent: true, isLastView: isLast(counted) });
  }

  /** POST /paste/:slug {password}: verifies (rate-limited per IP and slug), counts a view, returns an access token. */
  async unlock(principal: Principal, slug: string, password: string, clientIp: string) {
    const row = await this.findBySlug(slug);
    if (!row) throw notFound(PASTE_MESSAGES.notFound, "paste_not_found");
    const owner = principal.kind !== "anonymous" && isCreator(principal, row.created_by);
    const state = pasteState(row);
    if (state !== "ok" && !owner) throw goneError(state);
    if (row.password_hash === null)
      throw badRequest("This paste does not need a password", "password_not_required");
    const attempt = { clientIp, target: `paste:${slug}` };
    if (!(await checkSharePassword(this.rateLimiter, attempt, password, row.password_hash)))
      throw new AppError(401, "wrong_password", PASTE_MESSAGES.wrongPassword);
    const accessToken = this.accessTokens.issue("paste", row.id, row.password_hash);
    if (owner) return { ...presentPaste(row, { withContent: true }), accessToken };
    const counted = await this.countView((eb) => eb("id", "=", row.id));
    if (!counted) throw gone(PASTE_MESSAGES.viewLimit, "paste_view_limit");
    return { ...presentPaste(counted, { withContent: true, isLastView: isLast(counted) }), accessToken };
  }

  /**
   * GET /raw/:slug. A valid access token means the view was already counted
   * when the password was entered; ?password= counts a view like POST does.
   */
  async raw(
    principal: Principal,
    slug: string,
    credentials: { password?: string; token?: string },
    options: { countView: boolean; clientIp: string },
  ): Promise<{ row: PasteRow; content: string | null }> {
    const row = await this.findBySlug(slug);
    if (!row) throw notFound(PASTE_MESSAGES.notFound, "paste_not_found");
    const owner = principal.kind !== "anonymous" && isCreator(principal, row.created_by);
    if (owner) return { row, content: row.content };
    const state = pasteState(row);
    if (state !== "ok") throw goneError(state);
    if (row.password_hash !== null) {
      if (this.accessTokens.verify("paste", row.id, row.password_hash, credentials.token))
        return { row, content: row.content };
      if (!credentials.password)
        throw new AppError(401, "password_required", PASTE_MESSAGES.passwordRequired);
      const attempt = { clientIp: options.clientIp, target: `paste:${slug}` };
      if (!(await checkSharePassword(this.rateLimiter, attempt, credentials.password, row.password_hash)))
        throw new AppError(401, "wrong_password", PASTE_MESSAGES.wrongPassword);
    }
    if (!options.countView) return { row, content: null };
    const counted = await this.countView((eb) => eb("id", "=", row.id));
    if (!counted) throw gone(PASTE_MESSAGES.viewLimit, "paste_view_limit");
    return { row: counted, content: counted.content };
  }

  async list(principal: Principal, query: ListPastesQuery) {
    const now = nowIso();
    let base = this.db.selectFrom("pastes");
    if (principal.kind === "apiKey")
      base = base.where("pastes.created_by", "in", [`apikey:${principal.key.id}`, principal.key.id]);
    else if (query.createdBy) base = base.where("pastes.created_by", "=", query.createdBy);
    if (query.search) {
      const pattern = `%${query.search.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;
      base = base.where((eb) =>
        eb.or([
          eb("pastes.slug", "like", sql<string>`${pattern} escape '\\'`),
          eb("pastes.remark", "like", sql<string>`${pattern} escape '\\'`),
          eb("pastes.content", "like", sql<string>`${pattern} escape '\\'`),
        ]),
      );
    }
    if (query.expired !== undefined) {
      const dead = (eb: ExpressionBuilder<Database, "pastes">) =>
        eb.or([
          eb.and([eb("pastes.expires_at", "is not", null), eb("pastes.expires_at", "<=", now)]),
          eb.and([
            eb("pastes.max_views", "is not", null),
            eb("pastes.views", ">=", eb.ref("pastes.max_views")),
          ]),
        ]);
      base = base.where((eb) => (query.expired ? dead(eb) : eb.not(dead(eb))));
    }
    const [{ total }] = (await base.select((eb) => eb.fn.countAll<number>().as("total")).execute()) as [
      { total: number },
    ];
    const rows = await base
      .leftJoin("api_keys", (join) => join.on(sql`pastes.created_by`, "=", sql`'apikey:' || api_keys.id`))
      .selectAll("pastes")
      .select("api_keys.name as key_name")
      .orderBy("pastes.created_at", "desc")
      .orderBy("pastes.id")
      .limit(query.limit)
      .offset(query.offset)
      .execute();
    return { items: rows.map(presentListRow), total: Number(total) };
  }

  async getForOwner(principal: Principal, idOrSlug: string) {
    const row = await this.findOwned(principal, idOrSlug);
    return { ...presentListRow(row), content: row.content, ...presentPaste(row, { withContent: true }) };
  }

  async update(principal: Principal, idOrSlug: string, input: UpdateInput) {
    const row = await this.findOwned(principal, idOrSlug);
    const patch: Partial<PasteRow> = { updated_at: nowIso() };
    if (input.content !== undefined) {
      assertContentSize(input.content);
      patch.content = input.content;
    }
    if (input.remark !== undefined) patch.remark = input.remark || null;
    if (input.clearPassword) patch.password_hash = null;
    else if (input.password) patch.password_hash = await hashPassword(input.password);
    const expiresAt = pickDefined(input.expiresAt, input.expires_at);
    if (expiresAt !== undefined) {
      if (expiresAt !== null && expiresAt <= nowIso())
        throw badRequest("Expiry time must be in the future", "invalid_expiry");
      patch.expires_at = expiresAt;
    }
    const maxViews = pickDefined(input.maxViews, input.max_views);
    // A new content or a new view limit starts counting afresh (0.7.3 behaviour).
    if (maxViews !== undefined) patch.max_views = maxViews;
    if (maxViews !== undefined || input.content !== undefined) patch.views = 0;
    const randomSlug = input.newSlug === "" || input.newSlug === null;
    if (input.newSlug !== undefined)
      patch.slug = randomSlug ? randomBase62(RANDOM_SLUG_LENGTH) : (input.newSlug as string);
    try {
      await this.db.updateTable("pastes").set(patch).where("id", "=", row.id).execute();
    } catch (e) {
      if (isUniqueViolation(e)) throw conflict(PASTE_MESSAGES.slugTaken, "slug_taken");
      throw e;
    }
    const updated = { ...row, ...patch } as PasteRow;
    return presentListRow(updated);
  }

  async deleteMany(principal: Principal, ids: string[]): Promise<number> {
    let query = this.db
      .deleteFrom("pastes")
      .where((eb) => eb.or([eb("id", "in", ids), eb("slug", "in", ids)]));
    if (principal.kind === "apiKey")
      query = query.where("created_by", "in", [`apikey:${principal.key.id}`, principal.key.id]);
    const result = await query.executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** Removes expired and used-up pastes (all for the admin, own ones for a key). */
  async clearExpired(principal: Principal): Promise<number> {
    const now = nowIso();
    let query = this.db
      .deleteFrom("pastes")
      .where((eb) =>
        eb.or([
          eb.and([eb("expires_at", "is not", null), eb("expires_at", "<=", now)]),
          eb.and([eb("max_views", "is not", null), eb("views", ">=", eb.ref("max_views"))]),
        ]),
      );
    if (principal.kind === "apiKey")
      query = query.where("created_by", "in", [`apikey:${principal.key.id}`, principal.key.id]);
    const result = await query.executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  private findBySlug(slug: string) {
    return this.db.selectFrom("pastes").selectAll().where("slug", "=", slug).executeTakeFirst();
  }

  private async findOwned(principal: Principal, idOrSlug: string): Promise<PasteRow> {
    const row = await this.db
      .selectFrom("pastes")
      .selectAll()
      .where((eb) => eb.or([eb("id", "=", idOrSlug), eb("slug", "=", idOrSlug)]))
      .executeTakeFirst();
    if (!row || !isCreator(principal, row.created_by))
      throw notFound("Paste does not exist or no access", "paste_not_found");
    return row;
  }

  private countView(match: (eb: ExpressionBuilder<Database, "pastes">) => Expression<SqlBool>) {
    const now = nowIso();
    return this.db
      .updateTable("pastes")
      .set((eb) => ({ views: eb("views", "+", 1) }))
      .where(match)
      .where((eb) => eb.or([eb("max_views", "is", null), eb("views", "<", eb.ref("max_views"))]))
      .where((eb) => eb.or([eb("expires_at", "is", null), eb("expires_at", ">", now)]))
      .returningAll()
      .executeTakeFirst()
      .then((counted) => {
        if (counted) metrics.view("paste");
        return counted;
      });
  }

  /** Insert; a taken custom slug is 409, a (vanishingly rare) random collision retries. */
  private async insertWithSlug(row: PasteRow, randomSlug: boolean): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        await this.db.insertInto("pastes").values(row).execute();
        return;
      } catch (e) {
        if (!isUniqueViolation(e)) throw e;
        if (!randomSlug || attempt >= 4) throw conflict(PASTE_MESSAGES.slugTaken, "slug_taken");
        row.slug = randomBase62(RANDOM_SLUG_LENGTH);
      }
    }
  }
}

function isLast(row: PasteRow): boolean {
  return row.max_views !== null && row.views >= row.max_views;
}

function assertContentSize(content: string): void {
  if (Buffer.byteLength(content, "utf8") > PASTE_MAX_BYTES) {
    throw payloadTooLarge(`Content too large (max ${PASTE_MAX_BYTES / 1024 / 1024} MB)`);
  }
}

function pickDefined<T>(a: T | undefined, b: T | undefined): T | undefined {
  return a !== undefined ? a : b;
}
