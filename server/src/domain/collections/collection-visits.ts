/**
 * A visitor at /c/<slug> (docs/collections.md). The visit follows the rules of
 * file shares (decision 0023): opening the page, or a first request without a
 * token (a ZIP of all, one file), uses one view of a view-limited collection
 * and hands out an access token; the rest of the visit (previews, downloads,
 * folder pages, the ZIP) goes on with that token, as a cookie on the
 * collection's routes or as `?token=`, and never counts again. Passwords are
 * rate-limited per address and collection; link-preview bots get names only.
 */
import type {
  CollectionEntry,
  CollectionFolderPage,
  LockedCollection,
  PublicCollection,
} from "@clipshare/shared";
import type { Principal } from "../../auth/principal";
import type { CollectionRow } from "../../db/schema";
import { SHARE_TOKEN_TTL_SECONDS } from "../shares/access-tokens";
import {
  type ContentGrant,
  lockedShare,
  type PasswordAttempt,
  remainingViews,
  type ShareAccess,
  shareState,
} from "../shares/share-access";
import { thumbnailKind } from "../thumbnails/render";
import type { CollectionItemReader, ItemContent, ItemWithShare, VisibleEntry } from "./item-reader";

export interface VisitAnswer {
  data: PublicCollection | LockedCollection;
  /** A token to set as the visit's cookie: new (a view was used or a password checked). */
  newToken: string | null;
}

export class CollectionVisits {
  constructor(
    private readonly access: ShareAccess<CollectionRow>,
    readonly reader: CollectionItemReader,
  ) {}

  /**
   * GET /public/collections/:slug. A valid token continues the visit (a reload counts nothing);
   * otherwise ShareAccess.open decides: the owner sees all, a request that may count uses a
   * view, a password-protected collection answers its lock.
   */
  async view(
    principal: Principal,
    slug: string,
    options: { countView: boolean; token: string | undefined; origin: string },
  ): Promise<VisitAnswer> {
    if (options.token) {
      const row = await this.access.findBySlug(slug);
      if (this.access.tokenValid(row, options.token) && shareState(row) !== "expired")
        return { data: await this.publicData(row, options.token, options.origin), newToken: null };
    }
    const { row, grant } = await this.access.open(principal, slug, options);
    if (grant === "metadata" && row.password_hash !== null) return { data: lockedShare(row), newToken: null };
    // Metadata without a password: a link preview or a HEAD, names only.
    const token = grant === "metadata" ? null : this.access.issueToken(row);
    return { data: await this.publicData(row, token, options.origin), newToken: token };
  }

  /** POST /public/collections/:slug/verify {password}: the owner never counts, anyone else uses a view. */
  async unlock(principal: Principal, attempt: PasswordAttempt, origin: string): Promise<VisitAnswer> {
    const { row } = await this.access.unlock(principal, attempt);
    const token = this.access.issueToken(row);
    return { data: await this.publicData(row, token, origin), newToken: token };
  }

  /** The check of every route that sends content or a folder page (ShareAccess.authorizeContent). */
  authorize(
    principal: Principal,
    slug: string,
    credentials: { token?: string | undefined; password?: string | undefined },
    options: { delivers: boolean; bot: boolean; clientIp: string },
  ): Promise<ContentGrant<CollectionRow>> {
    return this.access.authorizeContent(principal, slug, credentials, options);
  }

  /** The token URLs handed out under `grant` carry: the one presented, a new one, or (the owner) a fresh one. */
  tokenFor(grant: ContentGrant<CollectionRow>): string {
    return grant.token ?? this.access.issueToken(grant.row);
  }

  async item(row: CollectionRow, itemId: string): Promise<ItemWithShare> {
    return this.reader.item(row.id, itemId);
  }

  content(row: CollectionRow, item: ItemWithShare, inner: string): Promise<ItemContent> {
    return this.reader.content(row, item, inner);
  }

  async folderPage(
    grant: ContentGrant<CollectionRow>,
    itemId: string,
    inner: string,
    cursor: string | null,
    origin: string,
  ): Promise<CollectionFolderPage> {
    const item = await this.reader.item(grant.row.id, itemId);
    const page = await this.reader.folderPage(grant.row, item, inner, cursor);
    const urls = entryUrls(origin, grant.row.slug, this.tokenFor(grant));
    return { item_id: item.id, path: inner, entries: page.entries.map(urls), next_cursor: page.nextCursor };
  }

  /** The ZIP of all: its download name and entries (read as the archive streams). */
  async zip(row: CollectionRow) {
    const items = await this.reader.items(row.id);
    return { filename: zipName(row), entries: this.reader.zipEntries(row, items) };
  }

  private async publicData(
    row: CollectionRow,
    token: string | null,
    origin: string,
  ): Promise<PublicCollection> {
    const entries = await this.reader.visible(row, await this.reader.items(row.id));
    const slug = encodeURIComponent(row.slug);
    return {
      slug: row.slug,
      title: row.title,
      remark: row.remark,
      requires_password: false,
      has_password: row.password_hash !== null,
      expires_at: row.expires_at,
      views: row.views,
      max_views: row.max_views,
      remaining_views: remainingViews(row),
      created_at: row.created_at,
      items: token ? entries.map(entryUrls(origin, row.slug, token)) : entries.map(withoutUrls),
      zip_url: token
        ? `${origin}/api/public/collections/${slug}/zip?token=${encodeURIComponent(token)}`
        : null,
      access_token: token,
      token_expires_in: token ? this.access.tokenSecondsLeft(token) : SHARE_TOKEN_TTL_SECONDS,
    };
  }
}

/** The ZIP's download name: the title, else the link suffix. */
function zipName(row: CollectionRow): string {
  return row.title || row.slug;
}

const withoutUrls = (entry: VisibleEntry): CollectionEntry => ({
  ...entry,
  view_url: null,
  download_url: null,
  thumbnail_url: null,
});

/** Absolute URLs of an entry's content routes, carrying the visit's token. */
function entryUrls(origin: string, slug: string, token: string) {
  const base = `${origin}/api/public/collections/${encodeURIComponent(slug)}/items`;
  return (entry: VisibleEntry): CollectionEntry => {
    if (entry.is_directory) return withoutUrls(entry);
    const query = new URLSearchParams({ ...(entry.path ? { path: entry.path } : {}), token }).toString();
    const url = (route: string) => `${base}/${encodeURIComponent(entry.item_id)}/${route}?${query}`;
    return {
      ...entry,
      view_url: url("view"),
      download_url: url("download"),
      thumbnail_url: thumbnailKind(entry.mimetype, entry.name) ? url("thumbnail") : null,
    };
  };
}
