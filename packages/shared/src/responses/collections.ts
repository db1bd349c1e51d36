import { z } from "zod";
import { listPagination, lockedShare, SHARE_STATES } from "./pastes";

/** What the collection routes answer in `data`. */

const nullableString = z.string().nullable();

/** An item as its owner manages it: a file share, or a path of the explorer tree. */
export const collectionItem = z.strictObject({
  id: z.string(),
  source: z.enum(["share", "path"]),
  /** The file share (source "share"); null once that share is deleted. */
  file_id: nullableString,
  file_slug: nullableString,
  /** The explorer path (source "path"). */
  path: nullableString,
  name: z.string(),
  is_directory: z.boolean(),
  /** Bytes of a file share when it was added; null for paths (they change). */
  size: z.number().nullable(),
});
export type CollectionItem = z.infer<typeof collectionItem>;

/** A collection for its owner. */
export const collection = z.strictObject({
  id: z.string(),
  slug: z.string(),
  /** The visitor page's path. */
  url: z.string(),
  title: nullableString,
  remark: nullableString,
  has_password: z.boolean(),
  expires_at: nullableString,
  max_views: z.number().nullable(),
  views: z.number(),
  remaining_views: z.number().nullable(),
  state: z.enum(SHARE_STATES),
  no_log: z.boolean(),
  item_count: z.number(),
  created_by: z.string(),
  key_name: nullableString,
  /** The user the collection belongs to, and their name. */
  owner_id: nullableString,
  owner_name: nullableString,
  created_at: z.string(),
  updated_at: z.string(),
});
export type Collection = z.infer<typeof collection>;

export const collectionDetail = collection.extend({ items: z.array(collectionItem) });
export type CollectionDetail = z.infer<typeof collectionDetail>;

export const collectionList = z.strictObject({
  collections: z.array(collection),
  pagination: listPagination,
});
export type CollectionList = z.infer<typeof collectionList>;

/**
 * What a visitor sees of one file or folder: URLs carry the visit's access token, so
 * previews, downloads and the folder's pages never count another view.
 */
export const collectionEntry = z.strictObject({
  /** The item it belongs to. */
  item_id: z.string(),
  name: z.string(),
  /** Where it lies inside its folder item ("" for the item itself). */
  path: z.string(),
  is_directory: z.boolean(),
  size: z.number().nullable(),
  mimetype: nullableString,
  modified: nullableString,
  /** Inline (previews), as a download, a WebP thumbnail of images and videos; null for folders. */
  view_url: nullableString,
  download_url: nullableString,
  thumbnail_url: nullableString,
});
export type CollectionEntry = z.infer<typeof collectionEntry>;

/** GET /public/collections/:slug: the page, its items and the ZIP of all. */
export const publicCollection = z.strictObject({
  slug: z.string(),
  title: nullableString,
  remark: nullableString,
  requires_password: z.literal(false),
  has_password: z.boolean(),
  expires_at: nullableString,
  views: z.number(),
  max_views: z.number().nullable(),
  remaining_views: z.number().nullable(),
  created_at: z.string(),
  items: z.array(collectionEntry),
  /** The ZIP of all; null (as every URL) for a link preview, which gets names only. */
  zip_url: nullableString,
  /** Continues this visit without counting (also set as a cookie on the collection's routes). */
  access_token: nullableString,
  /** Seconds the token lasts. */
  token_expires_in: z.number(),
});
export type PublicCollection = z.infer<typeof publicCollection>;

/** A protected collection before its password: nothing that names what it holds. */
export const lockedCollection = lockedShare;
export type LockedCollection = z.infer<typeof lockedCollection>;

/** GET /public/collections/:slug/items/:item/list: one page of a folder item. */
export const collectionFolderPage = z.strictObject({
  item_id: z.string(),
  path: z.string(),
  entries: z.array(collectionEntry),
  next_cursor: nullableString,
});
export type CollectionFolderPage = z.infer<typeof collectionFolderPage>;
