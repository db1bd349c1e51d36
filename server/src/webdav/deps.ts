import type { AppContext } from "../context";
import type { VirtualFileSystem } from "../domain/fs/vfs";
import type { LockStore } from "./lock-store";
import type { PropStore } from "./prop-store";

/** What the method handlers use: the same domain services as the JSON API, plus the DAV stores. */
export interface DavDeps {
  ctx: AppContext;
  vfs: VirtualFileSystem;
  locks: LockStore;
  props: PropStore;
}
