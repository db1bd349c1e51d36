/**
 * Visitor access to a share, one set of rules for text pastes and file
 * shares:
 * - a share is live until it expires or its views reach max_views; then it
 *   answers 410 (expired, or used up) with its kind's 0.7.3 message;
 * - a view counts only when content (or a URL to it) is delivered to a
 *   visitor, in one conditional UPDATE, so with max_views = N exactly N
 *   concurrent visitors succeed; the creator and the admin never count;
 * - share passwords are checked against a rate limit per address and share
 *   that is reserved before the hash runs;
 * - a correct password or a counted view hands out an access token (see
 *   access-tokens.ts) that continues that view without counting again.
 * The services decide, per route, which of these steps apply and in which
 * order; each step exists only here.
 */
import { type Kysely, sql } from "kysely";
import { isCreator } from "../../auth/creator";
import { checkSharePassword } from "../../auth/passwords";
import type { Principal } from "../../auth/principal";
import type { RateLimiter } from "../../auth/rate-limiter";
import { type Db, nowIso } from "../../db/database";
import { groupCommit } from "../../db/group-commit";
import { preparedQuery } from "../../db/prepared-query";
import type { FileRow, PasteRow } from "../../db/schema";
import { isUniqueViolation } from "../../db/sql-helpers";
import { AppError, badRequest, conflict, gone, notFound } from "../../errors";
import { randomBase62 } from "../../lib/crypto";
import { metrics } from "../../lib/metrics";
import type { ShareAccessTokens, VisitKind } from "./access-tokens";
import type { ShareEvents } from "./share-events";

/** Length of generated share slugs. */
export const RANDOM_SLUG_LENGTH = 10;

export const newSlug = (): string => randomBase62(RANDOM_SLUG_LENGTH);

export type ShareState = "ok" | "expired" | "view_limit";

/** What every share row carries, whatever its kind. */
export type ShareRow = Pick<
  PasteRow & FileRow,
  | "id"
  | "slug"
  | "password_hash"
  | "expires_at"
  | "max_views"
  | "views"
  | "created_by"
  | "owner_id"
  | "updated_at"
>;

type ViewLimits = Pick<ShareRow, "expires_at" | "max_views" | "views">;

export function shareState(row: ViewLimits, now = nowIso()): ShareState {
  if (row.expires_at !== null && row.expires_at <= now) return "expired";
  if (row.max_views !== null && row.views >= row.max_views) return "view_limit";
  return "ok";
}

export function remainingViews(row: ViewLimits): number | null {
  return row.max_views === null ? null : Math.max(0, row.max_views - row.views);
}

/**
 * A protected share before its password: nothing that names what it holds or
 * leads to it (id, names, type, owner), only what the prompt needs.
 */
export function lockedShare(row: ViewLimits & { slug: string }) {
  return {
    slug: row.slug,
    requires_password: true as const,
    has_password: true as const,
    expires_at: row.expires_at,
    views: row.views,
    max_views: row.max_views,
    remaining_views: remainingViews(row),
  };
}

/** A visitor's password for one share, and the address its rate limit counts by. */
export interface PasswordAttempt {
  slug: string;
  password: string;
  clientIp: string;
}

/** This view used the last one the share had. */
export function isLastView(row: ViewLimits): boolean {
  return row.max_views !== null && row.views >= row.max_views;
}

/** The texts a kind of share answers with (kept as 0.7.3 clients know them). */
export interface ShareMessages {
  notFound: string;
  /** Not found, or not the caller's (owner routes); the admin may get a plainer text. */
  notOwned: string;
  notOwnedAdmin: string;
  expired: string;
  viewLimit: string;
  slugTaken: string;
  wrongPassword: string;
  passwordRequired: string;
  passwordNotRequired: string;
}

export interface ShareKindSpec {
  kind: VisitKind;
  table: "pastes" | "files" | "collections";
  messages: ShareMessages;
  /**
   * Rows also carry a `status` and only 'active' ones are visible to visitors
   * (file shares reserve their row while the upload runs); a counted view
   * stamps `updated_at`, where the grace period of a used-up share starts.
   */
  hasStatus: boolean;
}

/** The columns the rules touch, the same in every share table. */
type ShareColumns = ShareRow & { status: string };

/** The outcome of a visitor's content request: what to serve and the access token it may go on with. */
export interface ContentGrant<Row> {
  row: Row;
  /** The token that authorizes the rest of this visit (the one presented, or a new one); null when none is needed. */
  token: string | null;
  /** A view was used for this request (the token is new). */
  counted: boolean;
  /** The creator or the admin: nothing counted, nothing logged. */
  owner: boolean;
}

const BOT_REFUSED = "Link previews get no file content: open the link in a browser";

/** How a visitor's metadata request was answered. */
export type OpenResult<Row> =
  | { row: Row; grant: "owner" } // the creator or the admin: everything, nothing counted
  | { row: Row; grant: "view" } // a view was counted: content or URLs may be delivered
  | { row: Row; grant: "metadata" }; // password needed, or a request that does not count

export class ShareAccess<Row extends ShareRow> {
  /** Both share tables seen through their common columns, so one statement serves either. */
  private readonly shares: Kysely<Record<ShareKindSpec["table"], ShareColumns>>;

  /** The visitor statements, built once (prepared-query.ts): every share view runs one of them. */
  private readonly statements: ReturnType<typeof visitorStatements>;

  /** Group-committed INSERTs by column list (insertStatement). */
  private readonly inserts = new Map<string, (row: Row) => Promise<unknown>>();

  constructor(
    private readonly db: Db,
    private readonly rateLimiter: RateLimiter,
    private readonly tokens: ShareAccessTokens,
    readonly spec: ShareKindSpec,
    /** Told of every counted view (first opened, last view: notifications). */
    private readonly events?: ShareEvents,
  ) {
    this.shares = db as unknown as Kysely<Record<ShareKindSpec["table"], ShareColumns>>;
    this.statements = visitorStatements(db, spec);
  }

  // ---- state and answers -------------------------------------------------

  goneError(state: Exclude<ShareState, "ok">): AppError {
    const { kind, messages } = this.spec;
    return state === "expired"
      ? gone(messages.expired, `${kind}_expired`)
      : gone(messages.viewLimit, `${kind}_view_limit`);
  }

  /** Throws 410 unless the share is live. */
  assertLive(row: Row): void {
    const state = shareState(row);
    if (state !== "ok") throw this.goneError(state);
  }

  isOwner(principal: Principal, row: Row): boolean {
    return principal.kind !== "anonymous" && isCreator(principal, row);
  }

  // ---- finding rows --------------------------------------------------------

  /** The share a visitor's link names; 404 when there is none (or it is still uploading). */
  async findBySlug(slug: string): Promise<Row> {
    const [row] = await this.statements.findBySlug({ slug });
    if (!row) throw notFound(this.spec.messages.notFound, `${this.spec.kind}_not_found`);
    return row as unknown as Row;
  }

  /** A share by id or slug that the principal created; 404 otherwise (whatever its status). */
  async findOwned(principal: Principal, idOrSlug: string): Promise<Row> {
    const row = await this.shares
      .selectFrom(this.spec.table)
      .selectAll()
      .where((eb) => eb.or([eb("id", "=", idOrSlug), eb("slug", "=", idOrSlug)]))
      .executeTakeFirst();
    if (!row || !isCreator(principal, row)) {
      const { messages } = this.spec;
      throw notFound(
        principal.kind === "admin" ? messages.notOwnedAdmin : messages.notOwned,
        `${this.spec.kind}_not_found`,
      );
    }
    return row as unknown as Row;
  }

  // ---- writing rows --------------------------------------------------------

  /** Inserts a new share; a taken custom slug is 409, a (rare) taken random slug is replaced a few times. */
  async insert(row: Row, customSlug: boolean): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        await this.insertStatement(Object.keys(row))(row);
        return;
      } catch (e) {
        if (!isUniqueViolation(e)) throw e;
        if (customSlug || attempt >= 4) throw this.slugTaken();
        row.slug = newSlug();
      }
    }
  }

  /**
   * The INSERT of a row with these columns, prepared once and group-committed: creating
   * shares is a hot path too (one commit per paste cost more than building it), and
   * concurrent creations share a commit on SQLite. A taken slug fails only its own row.
   */
  private insertStatement(columns: string[]): (row: Row) => Promise<unknown> {
    const key = columns.join(",");
    let insert = this.inserts.get(key);
    if (!insert) {
      insert = groupCommit(
        this.db,
        preparedQuery<Row, never>(this.shares, (param) =>
          this.shares
            .insertInto(this.spec.table)
            .values(
              Object.fromEntries(columns.map((c) => [c, param((row) => row[c as keyof Row])])) as never,
            ),
        ),
      );
      this.inserts.set(key, insert);
    }
    return insert;
  }

  /** Applies an owner's change; a new slug someone else holds is 409. */
  async update(id: string, patch: Partial<Row>): Promise<void> {
    try {
      await this.shares
        .updateTable(this.spec.table)
        .set(patch as Partial<ShareColumns>)
        .where("id", "=", id)
        .execute();
    } catch (e) {
      if (isUniqueViolation(e)) throw this.slugTaken();
      throw e;
    }
  }

  // ---- counting --------------------------------------------------------------

  /**
   * Uses one view of a live share, atomically: the row after counting, or
   * undefined when the share was used up or expired in the meantime.
   * `unprotectedSlug` counts by slug, and only when the share has no password.
   */
  async countView(
    match: { id: string } | { unprotectedSlug: string; readableOnly?: boolean },
  ): Promise<Row | undefined> {
    const now = nowIso();
    const [counted] = ("id" in match
      ? await this.statements.countViewById({ id: match.id, now })
      : match.readableOnly
        ? await this.statements.countReadableViewBySlug({ slug: match.unprotectedSlug, now })
        : await this.statements.countViewBySlug({ slug: match.unprotectedSlug, now })) as unknown as Row[];
    if (counted) {
      metrics.view(this.spec.kind);
      this.events?.counted(this.spec.kind, counted);
    }
    return counted;
  }

  /** Uses one view of `row` or answers 410 (the last view went to someone else, or it expired meanwhile). */
  async countViewOrGone(row: Row): Promise<Row> {
    const counted = await this.countView({ id: row.id });
    if (!counted) throw this.goneError(shareState(row) === "expired" ? "expired" : "view_limit");
    return counted;
  }

  // ---- passwords and tokens ------------------------------------------------

  /** 401 `wrong_password` unless it matches; rate-limited per address and share before hashing. */
  async checkPassword(row: Row, password: string, clientIp: string): Promise<void> {
    const attempt = { clientIp, target: `${this.spec.kind}:${row.slug}` };
    if (!(await checkSharePassword(this.rateLimiter, attempt, password, row.password_hash ?? "")))
      throw new AppError(401, "wrong_password", this.spec.messages.wrongPassword);
  }

  /** For a protected share: 401 `password_required` without one, else the checked password. */
  async requirePassword(row: Row, password: string | undefined, clientIp: string): Promise<void> {
    if (row.password_hash === null) return;
    if (!password) throw new AppError(401, "password_required", this.spec.messages.passwordRequired);
    await this.checkPassword(row, password, clientIp);
  }

  issueToken(row: Row): string {
    return this.tokens.issue(this.spec.kind, row.id, row.password_hash ?? "");
  }

  tokenValid(row: Row, token: string | undefined | null): boolean {
    return this.tokens.verify(this.spec.kind, row.id, row.password_hash ?? "", token);
  }

  tokenSecondsLeft(token: string): number {
    return this.tokens.secondsLeft(token);
  }

  // ---- the visitor flows both kinds share -----------------------------------

  /**
   * A visitor opens a share's page (metadata route). The owner sees all
   * without counting; a request that may count (`countView`: a GET from
   * something other than a link-preview bot) on a live share without a
   * password uses a view; anyone else gets metadata only.
   */
  async open(principal: Principal, slug: string, options: { countView: boolean }): Promise<OpenResult<Row>> {
    if (options.countView && principal.kind === "anonymous") {
      // Fast path: one conditional UPDATE both checks and counts.
      const counted = await this.countView({ unprotectedSlug: slug });
      if (counted) return { row: counted, grant: "view" };
    }
    const row = await this.findBySlug(slug);
    if (this.isOwner(principal, row)) return { row, grant: "owner" };
    this.assertLive(row);
    if (row.password_hash !== null || !options.countView) return { row, grant: "metadata" };
    return { row: await this.countViewOrGone(row), grant: "view" };
  }

  /**
   * A visitor sends the share's password. The owner may unlock a share that
   * is no longer live and never counts; anyone else uses a view.
   */
  async unlock(principal: Principal, attempt: PasswordAttempt): Promise<{ row: Row; owner: boolean }> {
    const { slug, password, clientIp } = attempt;
    const row = await this.findBySlug(slug);
    const owner = this.isOwner(principal, row);
    if (!owner) this.assertLive(row);
    if (row.password_hash === null)
      throw badRequest(this.spec.messages.passwordNotRequired, "password_not_required");
    await this.checkPassword(row, password, clientIp);
    if (owner) return { row, owner };
    return { row: await this.countViewOrGone(row), owner };
  }

  /**
   * Access check for everything that hands out a share's content or a URL to
   * it. A valid access token continues a visit already paid for, without
   * counting (even once the share is used up, though never past its expiry); a
   * link-preview bot without one gets nothing; anyone else needs the password
   * (if any) and, when the share has a view limit and the request delivers
   * content (`delivers`: not HEAD), uses a view, whatever its Range header says.
   */
  async authorizeContent(
    principal: Principal,
    slug: string,
    credentials: { token?: string | undefined; password?: string | undefined },
    options: {
      delivers: boolean;
      bot: boolean;
      clientIp: string;
      /** Throws when the route cannot serve this share; runs before a view is used. */
      accept?: ((row: Row) => void) | undefined;
    },
  ): Promise<ContentGrant<Row>> {
    const row = await this.findBySlug(slug);
    if (this.isOwner(principal, row)) return { row, token: null, counted: false, owner: true };
    const state = shareState(row);
    if (state === "expired") throw this.goneError(state);
    if (this.tokenValid(row, credentials.token))
      return { row, token: credentials.token!, counted: false, owner: false };
    if (options.bot && options.delivers) throw new AppError(403, "preview_bot_refused", BOT_REFUSED);
    this.assertLive(row);
    await this.requirePassword(row, credentials.password, options.clientIp);
    // A new token where it spares the rest of the visit something: a view or a password check.
    const grant = (served: Row, counted: boolean): ContentGrant<Row> => ({
      row: served,
      token: counted || served.password_hash !== null ? this.issueToken(served) : null,
      counted,
      owner: false,
    });
    options.accept?.(row);
    if (row.max_views === null || !options.delivers) return grant(row, false);
    return grant(await this.countViewOrGone(row), true);
  }

  private slugTaken(): AppError {
    return conflict(this.spec.messages.slugTaken, "slug_taken");
  }
}

/**
 * The statements of a visitor's request. Counting is one conditional UPDATE
 * ... RETURNING: it both checks that the share is live (not expired, views
 * left) and uses a view, so concurrent visitors can never overshoot max_views.
 */
function visitorStatements(database: Db, spec: ShareKindSpec) {
  const shares = database as unknown as Kysely<Record<ShareKindSpec["table"], ShareColumns>>;
  const counting = (now: string) => {
    let query = shares
      .updateTable(spec.table)
      .set((eb) => ({ views: eb("views", "+", 1), ...(spec.hasStatus ? { updated_at: now } : {}) }))
      .where((eb) => eb.or([eb("max_views", "is", null), eb("views", "<", eb.ref("max_views"))]))
      .where((eb) => eb.or([eb("expires_at", "is", null), eb("expires_at", ">", now)]));
    if (spec.hasStatus) query = query.where("status", "=", "active");
    return query;
  };
  return {
    findBySlug: preparedQuery<{ slug: string }, ShareColumns>(shares, (param) => {
      let query = shares.selectFrom(spec.table).selectAll().where("slug", "=", param("slug"));
      if (spec.hasStatus) query = query.where("status", "=", "active");
      return query;
    }),
    // Counting writes: concurrent views share a commit on SQLite (group-commit.ts).
    countViewById: groupCommit(
      database,
      preparedQuery<{ id: string; now: string }, ShareColumns>(shares, (param) =>
        counting(param("now")).where("id", "=", param("id")).returningAll(),
      ),
    ),
    /** Counts by slug, and only when the share has no password. */
    countViewBySlug: groupCommit(
      database,
      preparedQuery<{ slug: string; now: string }, ShareColumns>(shares, (param) =>
        counting(param("now"))
          .where("slug", "=", param("slug"))
          .where("password_hash", "is", null)
          .returningAll(),
      ),
    ),
    /**
     * Pastes only (raw form): as countViewBySlug, but an end-to-end encrypted
     * paste is refused there, so it must not lose a view.
     */
    countReadableViewBySlug: groupCommit(
      database,
      preparedQuery<{ slug: string; now: string }, ShareColumns>(shares, (param) =>
        counting(param("now"))
          .where("slug", "=", param("slug"))
          .where("password_hash", "is", null)
          .where(sql<boolean>`encrypted = 0`)
          .returningAll(),
      ),
    ),
  };
}
