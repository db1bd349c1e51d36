import { collectionApi } from "@clipshare/shared";
import { api } from "../../../lib/api";

export type {
  Collection,
  CollectionDetail,
  CollectionEntry,
  LockedCollection,
  PublicCollection,
} from "@clipshare/shared";

/** The collection routes over the app's API client (management signed in, visits without credentials). */
export const collectionsApi = collectionApi(api);
