/**
 * Collections: one link, /c/<slug>, for several files or a folder
 * (docs/collections.md). Management here is the creator's (an admin or a key
 * with the file-share bit, the creator rule deciding whose is whose); items
 * are file shares the creator owns, or files and folders of the explorer tree
 * the creator may view (paths also need the mount-view bit). A collection is a
 * share like pastes and file shares: its password, expiry and view limit are
 * kept and checked by the one set of visitor rules (ShareAccess); the visits
 * themselves are in collection-visits.ts.
 */
import { randomUUID } from "node:crypto";
import {
  type Collection,
  type CollectionDetail,
  type CollectionItem,
  type CreateCollectionBody,
  collectionPagePath,
  Permission,
  type UpdateCollectionBody,
} from "@clipshare/shared";
import { createdByKey, isCreator, ownership, whereOwned } from "../../auth/creator";
import { hashPassword } from "../../auth/passwords";
import { requirePermission } from "../../auth/policy";
import type { Principal } from "../../auth/principal";
import type { RateLimiter } from "../../auth/rate-limiter";
import type { Db } from "../../db/database";
import { nowIso } from "../../db/database";
import type { CollectionItemRow, CollectionRow } from "../../db/schema";
import { containsPattern, countMatching, isUniqueViolation } from "../../db/sql-helpers";
import { badRequest, conflict, isAppError } from "../../errors";
import type { FileShareService } from "../files/file-share-service";
import type { FsActor } from "../fs/access";
import type { VirtualFileSystem } from "../fs/vfs";
import { normalizeVirtualPath, vbasename } from "../fs/vpath";
import type { ShareAccessTokens } from "../shares/access-tokens";
import { newSlug, remainingViews, ShareAccess, shareState } from "../shares/share-access";
import type { ShareEvents } from "../shares/share-events";
import type { StorageConfigService } from "../storage-configs/storage-config-service";
import { CollectionVisits } from "./collection-visits";
import { CollectionItemReader } from "./item-reader";

export const COLLECTION_MESSAGES = {
  notFound: "Collection does not exist",
  notOwned: "Collection does not exist or no access",
  notOwnedAdmin: "Collection does not exist",
  expired: "Collection has expired",
  viewLimit: "Collection has reached its view limit",
  wrongPassword: "Incorrect password",
  passwordRequired: "Password required to open this collection",
  passwordNotRequired: "This collection does not need a password",
  slugTaken: "Link suffix already in use, try another suffix",
} as const;

const invalidItem = (message: string) => badRequest(message, "collection_item_invalid");

export interface ListCollectionsQuery {
  limit: number;
  offset: number;
  search?: string | undefined;
}

type NewItem = Omit<CollectionItemRow, "id" | "collection_id" | "position" | "created_at">;

export class CollectionService {
  constructor(
    private readonly db: Db,
    private readonly access: ShareAccess<CollectionRow>,
    private readonly vfs: VirtualFileSystem,
    private readonly fileShares: FileShareService,
  ) {}

  /** `actor`: the caller as the explorer sees it (its folder passes), for path items. */
  async create(principal: Principal, actor: FsActor, body: CreateCollectionBody): Promise<Collection> {
    requirePermission(principal, Permission.FILE_SHARE);
    const items = await this.checkItems(principal, actor, body.items);
    const now = new Date();
    const row: CollectionRow = {
      id: randomUUID(),
      slug: body.slug ?? newSlug(),
      title: body.title || null,
      remark: body.remark ?? null,
      password_hash: body.password ? await hashPassword(body.password) : null,
      expires_at: body.expires_in ? new Date(now.getTime() + body.expires_in * 3600_000).toISOString() : null,
      max_views: body.max_views ?? null,
      views: 0,
      no_log: body.no_log ? 1 : 0,
      ...ownership(principal),
      created_at: nowIso(now),
      updated_at: nowIso(now),
    };
    await this.insert(row, items, Boolean(body.slug));
    return present({ ...row, item_count: items.length, key_name: null });
  }

  async list(principal: Principal, query: ListCollectionsQuery) {
    requirePermission(principal, Permission.FILE_SHARE);
    let base = whereOwned(this.db.selectFrom("collections"), "collections", principal);
    if (query.search) {
      const pattern = containsPattern(query.search);
      base = base.where((eb) =>
        eb.or([
          eb("collections.slug", "like", pattern),
          eb("collections.title", "like", pattern),
          eb("collections.remark", "like", pattern),
        ]),
      );
    }
    const total = await countMatching(base);
    const rows = await base
      .leftJoin("api_keys", (join) => join.on(createdByKey("collections.created_by")))
      .leftJoin("users", "users.id", "collections.owner_id")
      .selectAll("collections")
      .select([
        "api_keys.name as key_name",
        "users.username as owner_name",
        (eb) =>
          eb
            .selectFrom("collection_items")
            .select((s) => s.fn.countAll<number>().as("n"))
            .whereRef("collection_items.collection_id", "=", "collections.id")
            .as("item_count"),
      ])
      .orderBy("collections.created_at", "desc")
      .orderBy("collections.id")
      .limit(query.limit)
      .offset(query.offset)
      .execute();
    return {
      items: rows.map((r) => present({ ...r, item_count: Number(r.item_count ?? 0) })),
      total: total,
    };
  }

  async detail(principal: Principal, id: string): Promise<CollectionDetail> {
    const row = await this.owned(principal, id);
    const items = await this.db
      .selectFrom("collection_items as i")
      .leftJoin("files as f", "f.id", "i.file_id")
      .selectAll("i")
      .select("f.slug as file_slug")
      .where("i.collection_id", "=", row.id)
      .orderBy("i.position")
      .execute();
    return {
      ...present({ ...row, item_count: items.length, key_name: null }),
      items: items.map(presentItem),
    };
  }

  async update(
    principal: Principal,
    actor: FsActor,
    id: string,
    body: UpdateCollectionBody,
  ): Promise<Collection> {
    const row = await this.owned(principal, id);
    const patch: Partial<CollectionRow> = {};
    if (body.title !== undefined) patch.title = body.title || null;
    if (body.remark !== undefined) patch.remark = body.remark || null;
    if (body.slug !== undefined) patch.slug = body.slug;
    if (body.password !== undefined)
      patch.password_hash = body.password ? await hashPassword(body.password) : null;
    if (body.expires_at !== undefined) patch.expires_at = body.expires_at;
    if (body.max_views !== undefined) {
      patch.max_views = body.max_views;
      patch.views = 0;
    }
    if (body.no_log !== undefined) patch.no_log = body.no_log ? 1 : 0;
    const items = body.items ? await this.checkItems(principal, actor, body.items) : null;
    if (Object.keys(patch).length === 0 && !items)
      throw badRequest("No valid update fields provided", "nothing_to_update");
    patch.updated_at = nowIso();
    await this.db.transaction().execute(async (trx) => {
      try {
        await trx.updateTable("collections").set(patch).where("id", "=", row.id).execute();
      } catch (e) {
        if (isUniqueViolation(e)) throw conflict(COLLECTION_MESSAGES.slugTaken, "slug_taken");
        throw e;
      }
      if (items) {
        await trx.deleteFrom("collection_items").where("collection_id", "=", row.id).execute();
        await trx.insertInto("collection_items").values(itemRows(row.id, items)).execute();
      }
    });
    const count = await this.itemCount(row.id);
    return present({ ...row, ...patch, item_count: count, key_name: null });
  }

  /** Deletes collections the caller owns; `deleteFiles` also deletes the file shares they list (and their objects). */
  async batchDelete(principal: Principal, ids: string[], deleteFiles: boolean) {
    requirePermission(principal, Permission.FILE_SHARE);
    const failed: Array<{ id: string; error: string }> = [];
    let success = 0;
    for (const id of ids) {
      const row = await this.db.selectFrom("collections").selectAll().where("id", "=", id).executeTakeFirst();
      if (!row || !isCreator(principal, row)) {
        failed.push({ id, error: COLLECTION_MESSAGES.notOwned });
        continue;
      }
      if (deleteFiles) {
        const files = await this.db
          .selectFrom("collection_items")
          .select("file_id")
          .where("collection_id", "=", row.id)
          .where("file_id", "is not", null)
          .execute();
        const fileIds = files.map((f) => f.file_id!);
        if (fileIds.length > 0)
          await this.fileShares.batchDelete(principal, { ids: fileIds, delete_mode: "both" });
      }
      await this.db.deleteFrom("collections").where("id", "=", row.id).execute();
      success++;
    }
    return { success, failed };
  }

  // ---- internals -----------------------------------------------------------

  private owned(principal: Principal, id: string): Promise<CollectionRow> {
    requirePermission(principal, Permission.FILE_SHARE);
    return this.access.findOwned(principal, id);
  }

  private async itemCount(id: string): Promise<number> {
    const { n } = await this.db
      .selectFrom("collection_items")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("collection_id", "=", id)
      .executeTakeFirstOrThrow();
    return Number(n);
  }

  /** The row and its items in one transaction, so no visitor sees a collection half made; a taken random slug is replaced. */
  private async insert(row: CollectionRow, items: NewItem[], customSlug: boolean): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        await this.db.transaction().execute(async (trx) => {
          await trx.insertInto("collections").values(row).execute();
          await trx.insertInto("collection_items").values(itemRows(row.id, items)).execute();
        });
        return;
      } catch (e) {
        if (!isUniqueViolation(e)) throw e;
        if (customSlug || attempt >= 4) throw conflict(COLLECTION_MESSAGES.slugTaken, "slug_taken");
        row.slug = newSlug();
      }
    }
  }

  /**
   * Each item must be the caller's to share now: a published file share it owns (not end-to-end
   * encrypted: a visitor could not read its name), or a path it may view. Repeats are dropped.
   */
  private async checkItems(
    principal: Principal,
    actor: FsActor,
    inputs: CreateCollectionBody["items"],
  ): Promise<NewItem[]> {
    const seen = new Set<string>();
    const items: NewItem[] = [];
    for (const input of inputs) {
      if ("file_id" in input) {
        if (seen.has(`f:${input.file_id}`)) continue;
        seen.add(`f:${input.file_id}`);
        const share = await this.fileShares.owned(principal, input.file_id).catch((e: unknown) => {
          throw isAppError(e) && e.status === 404
            ? invalidItem(`File share ${input.file_id} is not yours`)
            : e;
        });
        if (share.status !== "active") throw invalidItem(`${share.filename} has not finished uploading`);
        if (share.encrypted_meta !== null)
          throw invalidItem("End-to-end encrypted files cannot be put in a collection");
        items.push({
          file_id: share.id,
          path: null,
          name: share.filename,
          is_directory: 0,
          size: share.size,
        });
        continue;
      }
      requirePermission(principal, Permission.MOUNT_VIEW);
      const path = normalizeVirtualPath(input.path);
      if (path === "/") throw invalidItem("The root of the tree cannot be shared");
      if (seen.has(`p:${path}`)) continue;
      seen.add(`p:${path}`);
      const entry = await this.vfs.stat(actor, path);
      items.push({
        file_id: null,
        path,
        name: vbasename(path),
        is_directory: entry.isDirectory ? 1 : 0,
        size: null,
      });
    }
    return items;
  }
}

function itemRows(collectionId: string, items: NewItem[]): CollectionItemRow[] {
  const now = nowIso();
  return items.map((item, position) => ({
    ...item,
    id: randomUUID(),
    collection_id: collectionId,
    position,
    created_at: now,
  }));
}

export function present(
  row: CollectionRow & { item_count: number; key_name: string | null; owner_name?: string | null },
): Collection {
  return {
    id: row.id,
    slug: row.slug,
    url: collectionPagePath(row.slug),
    title: row.title,
    remark: row.remark,
    has_password: row.password_hash !== null,
    expires_at: row.expires_at,
    max_views: row.max_views,
    views: row.views,
    remaining_views: remainingViews(row),
    state: shareState(row),
    no_log: row.no_log === 1,
    item_count: row.item_count,
    created_by: row.created_by,
    key_name: row.key_name,
    owner_id: row.owner_id,
    owner_name: row.owner_name ?? null,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

function presentItem(row: CollectionItemRow & { file_slug: string | null }): CollectionItem {
  return {
    id: row.id,
    source: row.path === null ? "share" : "path",
    file_id: row.file_id,
    file_slug: row.file_slug,
    path: row.path,
    name: row.name,
    is_directory: row.is_directory === 1,
    size: row.size,
  };
}

/** The management service and the visitors' side over one set of visitor rules (ShareAccess). */
export function createCollectionServices(deps: {
  db: Db;
  rateLimiter: RateLimiter;
  tokens: ShareAccessTokens;
  vfs: VirtualFileSystem;
  fileShares: FileShareService;
  configs: StorageConfigService;
  events?: ShareEvents;
}) {
  const access = new ShareAccess<CollectionRow>(
    deps.db,
    deps.rateLimiter,
    deps.tokens,
    { kind: "collection", table: "collections", messages: COLLECTION_MESSAGES, hasStatus: false },
    deps.events,
  );
  return {
    collections: new CollectionService(deps.db, access, deps.vfs, deps.fileShares),
    visits: new CollectionVisits(access, new CollectionItemReader(deps.db, deps.vfs, deps.configs)),
  };
}
