/** Collections: several files (or mount paths) under one link (docs/collections.md). */
import { type Collection, type CreateCollectionBody, collectionApi } from "@clipshare/shared";
import type { Client } from "./client";

export interface CollectionOptions {
  title?: string | undefined;
  password?: string | undefined;
  expires_in?: number | undefined;
  max_views?: number | undefined;
  slug?: string | undefined;
  remark?: string | undefined;
}

/** A collection as the CLI prints it: with the visitor page's full link. */
function presented(client: Client, collection: Collection) {
  return { ...collection, url: client.resolve(collection.url) };
}

/** One link for `items`: file shares of the caller (by slug or id) or explorer paths. */
export async function createCollection(
  client: Client,
  items: CreateCollectionBody["items"],
  options: CollectionOptions,
) {
  client.requireKey();
  const body: CreateCollectionBody = {
    items,
    ...Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)),
  };
  return presented(client, await client.use((api) => collectionApi(api).create(body)));
}
