import type { ApiClient } from "./api-client";
import type {
  Collection,
  CollectionDetail,
  CollectionFolderPage,
  CollectionList,
  LockedCollection,
  PublicCollection,
} from "./responses/collections";
import type { CreateCollectionBody, UpdateCollectionBody } from "./schemas/collections";

/** The visitor page of a collection. */
export const collectionPagePath = (slug: string) => `/c/${encodeURIComponent(slug)}`;

/** Where a collection's visitor routes live; the visit's cookie is scoped to it. */
export const collectionVisitorPath = (slug: string) => `/public/collections/${encodeURIComponent(slug)}`;

/**
 * The collection routes over one API client (the web app's and the CLI's):
 * management as the signed-in creator, the visitor's calls without credentials
 * (a visit goes on with the access token the first answer hands out).
 */
export function collectionApi<O extends string>(client: ApiClient<O>) {
  const own = (id: string) => `/collections/${encodeURIComponent(id)}`;
  const asVisitor = (token?: string | null) => ({
    auth: "none" as const,
    ...(token ? { query: { token } } : {}),
  });
  return {
    list: (query: { limit?: number; offset?: number; search?: string } = {}) =>
      client.get<CollectionList>("/collections", { query }),
    detail: (id: string) => client.get<CollectionDetail>(own(id)),
    create: (body: CreateCollectionBody) => client.post<Collection>("/collections", body),
    update: (id: string, body: UpdateCollectionBody) => client.put<Collection>(own(id), body),
    remove: (ids: string[], deleteFiles = false) =>
      client.delete<{ success: number; failed: Array<{ id: string; error: string }> }>(
        "/collections/batch-delete",
        { ids, delete_files: deleteFiles },
      ),

    visit: (slug: string, token?: string | null) =>
      client.get<PublicCollection | LockedCollection>(collectionVisitorPath(slug), asVisitor(token)),
    unlock: (slug: string, password: string) =>
      client.post<PublicCollection>(`${collectionVisitorPath(slug)}/verify`, { password }, asVisitor()),
    folder: (slug: string, itemId: string, path: string, token: string | null, cursor?: string | null) =>
      client.get<CollectionFolderPage>(
        `${collectionVisitorPath(slug)}/items/${encodeURIComponent(itemId)}/list`,
        {
          auth: "none",
          query: { path, ...(cursor ? { cursor } : {}), ...(token ? { token } : {}) },
        },
      ),
  };
}
