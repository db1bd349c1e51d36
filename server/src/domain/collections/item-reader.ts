/**
 * Reading a collection's items for its visitors (docs/collections.md).
 *
 * A file-share item is read from its storage as the share itself is, while
 * that share is published and not expired.
 *
 * A path item is read through the explorer tree by a reader confined to that
 * path: an API-key principal whose base path is the item's path and whose only
 * bit is MOUNT_VIEW, derived from the creator at each visit (the creator must
 * still exist and see the path). So the tree's one check applies as it does to
 * any key: nothing outside the path (the base path refuses it), the folder
 * rules (hidden entries stay hidden, password-protected folders below it stay
 * shut) and, on LOCAL storage, a driver confined to the path's real location,
 * so a symbolic link leading out of it is neither listed nor read.
 */
import { hasPermission, isPathWithinBase, Permission, uploadMimeType } from "@clipshare/shared";
import { accountIdOf, grantOf, type Principal } from "../../auth/principal";
import type { Db } from "../../db/database";
import { nowIso } from "../../db/database";
import type { CollectionItemRow, CollectionRow, FileRow } from "../../db/schema";
import { AppError, isAppError, notFound } from "../../errors";
import type { ZipEntry } from "../../lib/zip/zip-writer";
import type { StorageDriver, StorageEntry } from "../../storage/types";
import { apiActor, type FsActor } from "../fs/access";
import type { VirtualFileSystem } from "../fs/vfs";
import { vjoin } from "../fs/vpath";
import { openOrSkip, treeEntries, uniqueNames } from "../fs/zip-service";
import type { StorageConfigService } from "../storage-configs/storage-config-service";
import { resolveCreator } from "../tasks/creator";

/** One file or folder as a visitor sees it (URLs are added by the routes' presenter). */
export interface VisibleEntry {
  item_id: string;
  name: string;
  /** Inside a folder item, "/"-separated; "" for the item itself. */
  path: string;
  is_directory: boolean;
  size: number | null;
  mimetype: string | null;
  modified: string | null;
}

/** A file to send: where its bytes are and what it is. */
export interface ItemContent {
  storageId: string;
  driver: StorageDriver;
  path: string;
  filename: string;
  contentType: string;
  entry: StorageEntry;
}

export const itemGone = () => notFound("This item is not in the collection", "collection_item_not_found");

/** Items with what their file shares say (null for path items and shares that are gone). */
export type ItemWithShare = CollectionItemRow & { share: FileRow | null };

/**
 * The reader of a path item: the creator's view of the tree narrowed to `root`, or null when
 * the creator is gone, lost the view bit, or no longer sees `root` (its base path moved).
 */
export function confinedReader(
  creator: Principal | null,
  collectionId: string,
  root: string,
): FsActor | null {
  const grant = creator ? grantOf(creator) : null;
  if (!creator || !grant) return null;
  if (grant !== "all") {
    if (!hasPermission(grant.permissions, Permission.MOUNT_VIEW) || !isPathWithinBase(grant.basePath, root))
      return null;
  }
  return apiActor({
    kind: "apiKey",
    key: {
      id: `collection:${collectionId}`,
      name: "collection visitor",
      permissions: Permission.MOUNT_VIEW,
      basicPath: root,
      role: "GENERAL",
      isGuest: true,
      ownerId: accountIdOf(creator) ?? "",
      ownerName: "",
      ownerRole: "user",
    },
  });
}

/** A share item is readable while its share is published and not expired (its own view limit aside). */
function liveShare(share: FileRow | null, now = nowIso()): share is FileRow {
  return !!share && share.status === "active" && (share.expires_at === null || share.expires_at > now);
}

/** Not there, not the reader's to see, or in storage no more: the item is left out, not an error. */
function unavailable(e: unknown): boolean {
  return isAppError(e) && e.status >= 400 && e.status < 500;
}

/**
 * What a visitor learns when a read in the tree fails: that the item is not there, or that the
 * storage failed; never the tree's own paths, which the tree's messages name.
 */
function forVisitor(e: unknown): unknown {
  if (unavailable(e)) return itemGone();
  if (isAppError(e)) return new AppError(e.status, e.error, "The storage could not be read; try again later");
  return e;
}

export class CollectionItemReader {
  constructor(
    private readonly db: Db,
    private readonly vfs: VirtualFileSystem,
    private readonly configs: StorageConfigService,
  ) {}

  /** The collection's items in order, each with its file share (two queries, the same on both dialects). */
  async items(collectionId: string): Promise<ItemWithShare[]> {
    const items = await this.db
      .selectFrom("collection_items")
      .selectAll()
      .where("collection_id", "=", collectionId)
      .orderBy("position")
      .execute();
    const fileIds = items.flatMap((i) => (i.file_id ? [i.file_id] : []));
    const shares =
      fileIds.length === 0
        ? []
        : await this.db.selectFrom("files").selectAll().where("id", "in", fileIds).execute();
    const byId = new Map(shares.map((s) => [s.id, s]));
    return items.map((item) => ({ ...item, share: item.file_id ? (byId.get(item.file_id) ?? null) : null }));
  }

  /** One item of the collection, or 404. */
  async item(collectionId: string, itemId: string): Promise<ItemWithShare> {
    const item = await this.db
      .selectFrom("collection_items")
      .selectAll()
      .where("id", "=", itemId)
      .where("collection_id", "=", collectionId)
      .executeTakeFirst();
    if (!item) throw itemGone();
    const share = item.file_id
      ? ((await this.db.selectFrom("files").selectAll().where("id", "=", item.file_id).executeTakeFirst()) ??
        null)
      : null;
    return { ...item, share };
  }

  creator(collection: CollectionRow): Promise<Principal | null> {
    return resolveCreator(this.db, collection.created_by);
  }

  /**
   * What the visitor's page lists: every item that can be read now, in order. Path items are
   * looked at through their readers, a few at a time.
   */
  async visible(collection: CollectionRow, items: ItemWithShare[]): Promise<VisibleEntry[]> {
    const creator = items.some((i) => i.path !== null) ? await this.creator(collection) : null;
    const now = nowIso();
    const out: Array<VisibleEntry | null> = new Array(items.length).fill(null);
    let next = 0;
    const work = async () => {
      while (next < items.length) {
        const index = next++;
        out[index] = await this.entryOf(collection, items[index]!, creator, now);
      }
    };
    await Promise.all(Array.from({ length: Math.min(8, items.length) }, work));
    return out.filter((e): e is VisibleEntry => e !== null);
  }

  private async entryOf(
    collection: CollectionRow,
    item: ItemWithShare,
    creator: Principal | null,
    now: string,
  ): Promise<VisibleEntry | null> {
    if (item.file_id !== null) {
      if (!liveShare(item.share, now)) return null;
      return {
        item_id: item.id,
        name: item.share.filename,
        path: "",
        is_directory: false,
        size: item.share.size,
        mimetype: item.share.mimetype,
        modified: item.share.created_at,
      };
    }
    const reader = confinedReader(creator, collection.id, item.path!);
    if (!reader) return null;
    try {
      const entry = await this.vfs.stat(reader, item.path!);
      return {
        item_id: item.id,
        name: item.name,
        path: "",
        is_directory: entry.isDirectory,
        size: entry.isDirectory ? null : entry.size,
        mimetype: entry.isDirectory ? null : (entry.mimetype ?? uploadMimeType(item.name)),
        modified: entry.modified,
      };
    } catch (e) {
      if (unavailable(e)) return null;
      throw e;
    }
  }

  /** The reader of a path item, or 404 when the item cannot be read now. */
  async readerOf(collection: CollectionRow, item: ItemWithShare): Promise<FsActor> {
    if (item.path === null) throw itemGone();
    const reader = confinedReader(await this.creator(collection), collection.id, item.path);
    if (!reader) throw itemGone();
    return reader;
  }

  /** One page of a folder item (or of a folder inside it). */
  async folderPage(
    collection: CollectionRow,
    item: ItemWithShare,
    inner: string,
    cursor: string | null,
  ): Promise<{ entries: VisibleEntry[]; nextCursor: string | null }> {
    const reader = await this.readerOf(collection, item);
    const listing = await this.vfs
      .list(reader, inner ? vjoin(item.path!, inner) : item.path!, { cursor })
      .catch((e: unknown) => {
        throw forVisitor(e);
      });
    const entries = listing.items.map((e) => ({
      item_id: item.id,
      name: e.name,
      path: inner ? `${inner}/${e.name}` : e.name,
      is_directory: e.isDirectory,
      size: e.isDirectory ? null : e.size,
      mimetype: e.isDirectory ? null : (e.mimetype ?? uploadMimeType(e.name)),
      modified: e.modified,
    }));
    return { entries, nextCursor: listing.nextCursor };
  }

  /** The file a content route sends: the share's object, or a file at or inside a path item. */
  async content(collection: CollectionRow, item: ItemWithShare, inner: string): Promise<ItemContent> {
    if (item.file_id !== null) {
      const share = item.share;
      if (inner !== "" || !liveShare(share)) throw itemGone();
      const { driver } = await this.configs.driverById(share.storage_config_id!);
      const entry = await driver.stat(share.storage_path);
      if (!entry || entry.isDirectory) throw itemGone();
      return {
        storageId: share.storage_config_id!,
        driver,
        path: share.storage_path,
        filename: share.filename,
        contentType: share.mimetype,
        entry: { ...entry, name: share.filename, contentType: share.mimetype },
      };
    }
    const reader = await this.readerOf(collection, item);
    const { target, entry } = await this.vfs
      .openFile(reader, inner ? vjoin(item.path!, inner) : item.path!)
      .catch((e: unknown) => {
        throw forVisitor(e);
      });
    const filename = inner ? inner.slice(inner.lastIndexOf("/") + 1) : item.name;
    return {
      storageId: target.config.id,
      driver: target.driver,
      path: target.subPath,
      filename,
      contentType: entry.contentType ?? uploadMimeType(filename),
      entry,
    };
  }

  /** Everything, for the ZIP of all: files as they are, folders walked lazily while the archive streams. */
  async *zipEntries(collection: CollectionRow, items: ItemWithShare[]): AsyncGenerator<ZipEntry> {
    const unique = uniqueNames();
    const creator = items.some((i) => i.path !== null) ? await this.creator(collection) : null;
    for (const item of items) {
      if (item.file_id !== null) {
        const share = item.share;
        if (!liveShare(share)) continue;
        const { driver } = await this.configs.driverById(share.storage_config_id!);
        yield {
          name: unique(share.filename),
          isDirectory: false,
          size: share.size,
          modified: new Date(share.created_at),
          open: () => openOrSkip(() => driver.read(share.storage_path)),
        };
        continue;
      }
      const reader = confinedReader(creator, collection.id, item.path!);
      if (!reader) continue;
      const root = await this.vfs.stat(reader, item.path!).catch((e: unknown) => {
        if (unavailable(e)) return null;
        throw e;
      });
      if (root) yield* treeEntries(this.vfs, reader, { path: item.path!, entry: root }, unique(item.name));
    }
  }
}
