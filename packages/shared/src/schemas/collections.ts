import { z } from "zod";
import { REMARK_MAX, SHARE_PASSWORD_MAX } from "../share-rules";
import { hasControlCharacters, looseBoolean } from "./common";
import { uploadOptions } from "./files";
import { thumbnailQuery } from "./fs";
import { onFirstUse } from "./on-first-use";
import { maxViewsInput, optionalTimestamp, slugInput } from "./share-options";

/** Most items one collection lists (a folder item counts once, whatever it holds). */
export const COLLECTION_MAX_ITEMS = 1000;
export const COLLECTION_TITLE_MAX = 200;

/** A file share of the creator, or a file or folder of the explorer tree (followed as it is at each visit). */
const collectionItemInput = z.union([
  z.strictObject({ file_id: z.string().min(1).max(100) }),
  z.strictObject({ path: z.string().min(1).max(4096) }),
]);

const items = z
  .array(collectionItemInput, { error: "items must list file shares ({file_id}) or paths ({path})" })
  .min(1, "A collection needs at least one item")
  .max(COLLECTION_MAX_ITEMS, `A collection holds at most ${COLLECTION_MAX_ITEMS} items`);

const title = z
  .string()
  .trim()
  .max(COLLECTION_TITLE_MAX, `title may be at most ${COLLECTION_TITLE_MAX} characters`);

/** POST /collections: the items and the share options of the one link (`/c/<slug>`). */
export const createCollectionBody = onFirstUse(() =>
  uploadOptions
    .unwrap()
    .pick({ slug: true, remark: true, password: true, expires_in: true, max_views: true, no_log: true })
    .extend({ title: title.optional(), items })
    .strict(),
);
export type CreateCollectionBody = z.output<typeof createCollectionBody>;

/** PUT /collections/:id: any option; `items` replaces the list. A new view limit starts the count again. */
export const updateCollectionBody = onFirstUse(() =>
  z
    .object({
      title: z.union([title, z.null()]).optional(),
      remark: z.string().max(REMARK_MAX).nullable().optional(),
      slug: slugInput.optional(),
      /** "" or null clears the password. */
      password: z.string().max(SHARE_PASSWORD_MAX).nullable().optional(),
      expires_at: optionalTimestamp.optional(),
      max_views: maxViewsInput.optional(),
      no_log: looseBoolean.optional(),
      items: items.optional(),
    })
    .strict(),
);
export type UpdateCollectionBody = z.output<typeof updateCollectionBody>;

/** DELETE /collections/batch-delete; `delete_files` also deletes the file shares listed in them. */
export const batchDeleteCollectionsBody = onFirstUse(() =>
  z.object({
    ids: z
      .array(z.string().min(1).max(100), { error: "Please provide a valid collection ID array" })
      .min(1, "Please provide a valid collection ID array")
      .max(1000),
    delete_files: z.boolean().optional().default(false),
  }),
);

/** GET /collections: the owner's list, newest first. */
export const listCollectionsQuery = onFirstUse(() =>
  z.object({
    limit: z.coerce.number().int().min(1).max(200).optional(),
    offset: z.coerce.number().int().min(0).optional(),
    search: z.string().trim().max(200).optional(),
  }),
);

/** POST /public/collections/:slug/verify */
export const collectionPasswordBody = onFirstUse(() =>
  z.object({
    password: z
      .string({ error: "Password is required" })
      .min(1, "Password is required")
      .max(SHARE_PASSWORD_MAX),
  }),
);

/**
 * A place inside a folder item, relative to it ("" = the folder itself): "/"-separated names, no
 * "." or ".." segments, no backslashes or control characters.
 */
export const collectionInnerPath = onFirstUse(() =>
  z
    .string()
    .max(4096)
    .default("")
    .transform((v) => v.replace(/^\/+|\/+$/g, ""))
    .refine(
      (v) =>
        !hasControlCharacters(v) &&
        !v.includes("\\") &&
        (v === "" || v.split("/").every((s) => s !== "" && s !== "." && s !== "..")),
      "path must name a place inside the item",
    ),
);

/** The visitor's listing of a folder item: where, and the page. */
export const collectionFolderQuery = onFirstUse(() =>
  z.object({
    path: collectionInnerPath,
    cursor: z.string().max(2000).optional(),
  }),
);

/** What an item's content routes take: a file inside a folder item (`path`), the token. */
export const collectionContentQuery = onFirstUse(() =>
  z.object({ path: collectionInnerPath, token: z.string().max(200).optional() }),
);

/** A thumbnail of an image or video item: where, the box, the version marker. */
export const collectionThumbnailQuery = onFirstUse(() =>
  thumbnailQuery.unwrap().extend({ path: collectionInnerPath }),
);
