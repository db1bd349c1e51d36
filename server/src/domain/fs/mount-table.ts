/**
 * The mount manager: maps a virtual path to (mount, driver, driver-relative
 * path). Active mounts and their storage configs are read from the database
 * and kept for a few seconds; any mount change (here or, through the bus, on
 * another instance) drops the copy at once.
 */
import { normalizeBasePath } from "@clipshare/shared";
import { basePathOf, type Principal } from "../../auth/principal";
import type { Db } from "../../db/database";
import type { MountRow, StorageConfigRow } from "../../db/schema";
import type { StorageDriver } from "../../storage/types";
import type { StorageConfigService } from "../storage-configs/storage-config-service";
import { FolderRules } from "./folder-rules";
import { MountView } from "./mount-view";
import { hiddenAreasOf } from "./share-areas";
import { isWithin, subPathOf, vjoin } from "./vpath";

export interface ActiveMount {
  row: MountRow;
  config: StorageConfigRow;
  /** Storage-relative folders this mount never shows (share areas inside its storage). */
  hidden: string[];
}

export interface ResolvedPath extends ActiveMount {
  /** Normalized virtual path. */
  path: string;
  /** Mount-relative path; "" is the mount root. */
  subPath: string;
  /** The same place relative to the storage (the mount's root folder + subPath), as file shares record it. */
  storagePath: string;
  /**
   * The driver, confined to the real location of the key's base path when
   * that lies inside this mount (see `boundary`).
   */
  driver: StorageDriver;
  /** Driver-relative directory the driver is confined to; null when only the storage root bounds it. */
  boundary: string | null;
}

/** A child of a directory that exists because some mount lies at or below it. */
export interface MountChild {
  name: string;
  path: string;
  /** Set when a mount sits exactly at `path`. */
  mount: ActiveMount | null;
}

const TABLE_TTL_MS = 5000;

interface Snapshot {
  at: number;
  mounts: ActiveMount[];
  rules: FolderRules;
}

export class MountTable {
  private cached: Snapshot | null = null;
  private loading: Promise<Snapshot> | null = null;

  constructor(
    private readonly db: Db,
    private readonly configs: StorageConfigService,
  ) {}

  invalidate(): void {
    this.cached = null;
    this.loading = null;
  }

  /** Active mounts with their configs, deepest path first (so the first match is the longest). */
  async active(): Promise<ActiveMount[]> {
    return (await this.snapshot()).mounts;
  }

  /** The folder settings and the mounts' public switches, loaded and dropped with the mounts (folder-rules.ts). */
  async folderRules(): Promise<FolderRules> {
    return (await this.snapshot()).rules;
  }

  private async snapshot(): Promise<Snapshot> {
    if (this.cached && Date.now() - this.cached.at < TABLE_TTL_MS) return this.cached;
    if (!this.loading) {
      const loading = this.load();
      this.loading = loading;
      const settle = (snapshot: Snapshot | null) => {
        if (this.loading !== loading) return;
        this.loading = null;
        if (snapshot) this.cached = snapshot;
      };
      loading.then(settle, () => settle(null));
    }
    return this.loading;
  }

  async byId(id: string): Promise<ActiveMount | null> {
    return (await this.active()).find((m) => m.row.id === id) ?? null;
  }

  /**
   * The longest active mount containing `path`, or null for the virtual part
   * of the tree. `principal` is whom the storage is opened for: an API key
   * whose base path lies inside the mount gets a driver confined to it, so a
   * symlink below the base path cannot lead the key out of it. Null is for
   * the server's own work (signed links, housekeeping), bounded by the storage root.
   */
  async resolve(path: string, principal: Principal | null): Promise<ResolvedPath | null> {
    const mount = (await this.active()).find((m) => isWithin(path, m.row.mount_path));
    if (!mount) return null;
    const view = this.driverFor(mount);
    const base = boundaryIn(principal, mount.row.mount_path);
    const boundary = base !== null && view.confinedTo ? base : null;
    const subPath = subPathOf(path, mount.row.mount_path);
    return {
      ...mount,
      path,
      subPath,
      storagePath: view.storagePath(subPath),
      driver: boundary !== null && view.confinedTo ? view.confinedTo(boundary) : view,
      boundary,
    };
  }

  /** What the mount shows of its storage: its root folder, without the share areas (mount-view.ts). */
  driverFor(mount: ActiveMount): MountView {
    const storage = this.configs.driverFor(mount.config);
    const root = mount.row.root;
    // On LOCAL a symbolic link inside the root must not lead out of it (into the share area, say).
    const confined = root !== "" && storage.confinedTo ? storage.confinedTo(root) : storage;
    return new MountView(confined, root, mount.hidden);
  }

  /**
   * Children of `dir` that exist because of mounts: for mounts /a/b/c and /a/d,
   * children of "/" is [a], of "/a" is [b, d] (d being a mount itself).
   */
  async childrenOf(dir: string, visible: (mount: ActiveMount) => boolean): Promise<MountChild[]> {
    const children = new Map<string, MountChild>();
    for (const mount of await this.active()) {
      const mountPath = mount.row.mount_path;
      if (mountPath === dir || !isWithin(mountPath, dir) || !visible(mount)) continue;
      const rest = dir === "/" ? mountPath.slice(1) : mountPath.slice(dir.length + 1);
      const name = rest.split("/")[0]!;
      const path = vjoin(dir, name);
      const existing = children.get(name);
      const exact = path === mountPath ? mount : null;
      if (!existing) children.set(name, { name, path, mount: exact });
      else if (exact) existing.mount = exact;
    }
    return [...children.values()];
  }

  private async load(): Promise<Snapshot> {
    const [rows, folders] = await Promise.all([
      this.db.selectFrom("mounts").selectAll().where("is_active", "=", 1).execute(),
      this.db.selectFrom("folder_settings").selectAll().execute(),
    ]);
    // All configs, not only the mounted ones: any of them may keep its share area inside a mounted folder.
    const configs =
      rows.length === 0 ? [] : await this.db.selectFrom("storage_configs").selectAll().execute();
    const byId = new Map(configs.map((c) => [c.id, c]));
    const mounts: ActiveMount[] = [];
    for (const row of rows) {
      const config = row.storage_config_id ? byId.get(row.storage_config_id) : undefined;
      if (config) mounts.push({ row, config, hidden: hiddenAreasOf(config, configs, this.configs.dataDir) });
    }
    mounts.sort((a, b) => b.row.mount_path.length - a.row.mount_path.length);
    const publicity = mounts.map((m) => ({
      path: m.row.mount_path,
      publicBrowse: m.row.public_browse === 1,
    }));
    return { at: Date.now(), mounts, rules: new FolderRules(folders, publicity) };
  }
}

/** The base path relative to a mount it lies strictly inside; null when the mount is at or below it (or for the admin). */
function boundaryIn(principal: Principal | null, mountPath: string): string | null {
  const basePath = principal ? basePathOf(principal) : null;
  if (basePath === null) return null;
  const base = normalizeBasePath(basePath);
  if (base === mountPath || !isWithin(base, mountPath)) return null;
  return subPathOf(base, mountPath);
}
