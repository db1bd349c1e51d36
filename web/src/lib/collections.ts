import { collectionApi } from "@clipshare/shared";
import { api } from "./api";

/** The collection routes over the app's API client (management signed in, visits without credentials). */
export const collectionsApi = collectionApi(api);

/** The query key of everything the signed-in collection lists show. */
export const COLLECTIONS_KEY = ["collections"] as const;
