export type {
  Collection,
  CollectionDetail,
  CollectionEntry,
  LockedCollection,
  PublicCollection,
} from "@clipshare/shared";
export { collectionsApi } from "../../../lib/collections";
