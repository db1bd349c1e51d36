/**
 * Mount points: where a storage config appears
 * in the explorer tree. Only the admin manages them; API keys see the active
 * mounts related to their base path (read only).
 */
import { randomUUID } from "node:crypto";
import type {
  createMountRequest,
  MountDto,
  StorageType,
  updateMountRequest,
  WebdavPolicy,
} from "@clipshare/shared";
import type { z } from "zod";
import { creatorIdOf } from "../../auth/creator";
import { requireAdmin } from "../../auth/policy";
import type { Principal } from "../../auth/principal";
import type { Db } from "../../db/database";
import { nowIso } from "../../db/database";
import type { MountRow, StorageConfigRow } from "../../db/schema";
import { isUniqueViolation } from "../../db/sql-helpers";
import { AppError, badRequest, conflict, forbidden, isAppError, notFound } from "../../errors";
import { isSameOrInside, joinPath } from "../../storage/path-safety";
import { canSeeMount } from "../fs/access";
import { parseGlobList } from "../fs/index-globs";
import { storageLocation } from "../fs/share-areas";
import type { StorageConfigService } from "../storage-configs/storage-config-service";

type CreateInput = z.output<typeof createMountRequest>;
type UpdateInput = z.output<typeof updateMountRequest>;

export const MOUNT_MESSAGES = {
  notFound: "Mount does not exist",
  pathTaken: "Mount path already in use",
  configMissing: "Specified storage config does not exist",
  noAccess: "No permission to access this mount",
  rootOverlap:
    "This folder overlaps the folder of another mount on the same storage, so the same files would show twice; confirm with allow_overlap to create it anyway",
} as const;

export function presentMount(row: MountRow & { storage_config_name?: string | null }): MountDto {
  return {
    id: row.id,
    name: row.name,
    storage_type: row.storage_type as StorageType,
    storage_config_id: row.storage_config_id,
    storage_config_name: row.storage_config_name ?? null,
    mount_path: row.mount_path,
    root: row.root,
    remark: row.remark,
    is_active: row.is_active === 1,
    created_by: row.created_by,
    sort_order: row.sort_order,
    cache_ttl: row.cache_ttl,
    web_proxy: row.web_proxy === 1,
    public_browse: row.public_browse === 1,
    webdav_policy: row.webdav_policy as WebdavPolicy,
    enable_sign: row.enable_sign === 1,
    sign_expires: row.sign_expires,
    index_enabled: row.index_enabled === 1,
    index_include: parseGlobList(row.index_include),
    index_exclude: parseGlobList(row.index_exclude),
    index_interval: row.index_interval,
    created_at: row.created_at,
    updated_at: row.updated_at,
    last_used: row.last_used,
  };
}

export class MountService {
  constructor(
    private readonly db: Db,
    private readonly configs: StorageConfigService,
    /** Called after every change, so resolvers and caches (on every instance) forget the old table. */
    private readonly changed: () => Promise<void>,
  ) {}

  /** Admin: every mount, inactive ones included, by sort order then name. */
  async list(principal: Principal): Promise<MountDto[]> {
    requireAdmin(principal);
    return (await this.rows()).map(presentMount);
  }

  async get(principal: Principal, id: string): Promise<MountDto> {
    requireAdmin(principal);
    return presentMount(await this.requireRow(id));
  }

  async create(principal: Principal, input: CreateInput): Promise<MountDto> {
    requireAdmin(principal);
    const storageType = await this.configType(input.storage_config_id);
    await this.assertPathFree(input.mount_path);
    await this.assertNoOverlap(input.storage_config_id, input.root, input.allow_overlap);
    const now = nowIso();
    const row: MountRow = {
      id: randomUUID(),
      name: input.name,
      storage_type: storageType,
      storage_config_id: input.storage_config_id,
      mount_path: input.mount_path,
      root: input.root,
      remark: input.remark ?? null,
      is_active: input.is_active ? 1 : 0,
      created_by: creatorIdOf(principal),
      sort_order: input.sort_order,
      cache_ttl: input.cache_ttl,
      web_proxy: input.web_proxy ? 1 : 0,
      public_browse: input.public_browse ? 1 : 0,
      webdav_policy: input.webdav_policy,
      enable_sign: input.enable_sign ? 1 : 0,
      sign_expires: input.sign_expires,
      index_enabled: input.index_enabled ? 1 : 0,
      index_include: input.index_include.join("\n"),
      index_exclude: input.index_exclude.join("\n"),
      index_interval: input.index_interval,
      created_at: now,
      updated_at: now,
      last_used: null,
    };
    await this.createRoot(row);
    await this.write(() => this.db.insertInto("mounts").values(row).execute());
    return presentMount(await this.requireRow(row.id));
  }

  async update(principal: Principal, id: string, input: UpdateInput): Promise<MountDto> {
    requireAdmin(principal);
    const { storage_config_name: _name, ...row } = await this.requireRow(id);
    const next: MountRow = { ...row, updated_at: nowIso() };
    if (input.name !== undefined) next.name = input.name;
    if (input.storage_config_id !== undefined) next.storage_config_id = input.storage_config_id;
    if (input.mount_path !== undefined) next.mount_path = input.mount_path;
    if (input.root !== undefined) next.root = input.root;
    if (input.remark !== undefined) next.remark = input.remark;
    if (input.is_active !== undefined) next.is_active = input.is_active ? 1 : 0;
    if (input.sort_order !== undefined) next.sort_order = input.sort_order;
    if (input.cache_ttl !== undefined) next.cache_ttl = input.cache_ttl;
    if (input.web_proxy !== undefined) next.web_proxy = input.web_proxy ? 1 : 0;
    if (input.public_browse !== undefined) next.public_browse = input.public_browse ? 1 : 0;
    if (input.webdav_policy !== undefined) next.webdav_policy = input.webdav_policy;
    if (input.enable_sign !== undefined) next.enable_sign = input.enable_sign ? 1 : 0;
    if (input.sign_expires !== undefined) next.sign_expires = input.sign_expires;
    if (input.index_enabled !== undefined) next.index_enabled = input.index_enabled ? 1 : 0;
    if (input.index_include !== undefined) next.index_include = input.index_include.join("\n");
    if (input.index_exclude !== undefined) next.index_exclude = input.index_exclude.join("\n");
    if (input.index_interval !== undefined) next.index_interval = input.index_interval;
    if (next.storage_config_id !== row.storage_config_id || input.storage_type !== undefined)
      next.storage_type = await this.configType(next.storage_config_id);
    if (next.mount_path !== row.mount_path) await this.assertPathFree(next.mount_path, id);
    if (next.root !== row.root || next.storage_config_id !== row.storage_config_id) {
      await this.assertNoOverlap(next.storage_config_id, next.root, input.allow_overlap, id);
      await this.createRoot(next);
    }
    const { id: _id, created_at: _c, created_by: _b, ...patch } = next;
    await this.write(() => this.db.updateTable("mounts").set(patch).where("id", "=", id).execute());
    // Entries of another folder or storage, or of a mount no longer indexed, would be wrong: start over.
    const indexStale =
      next.index_enabled === 0 ||
      next.root !== row.root ||
      next.storage_config_id !== row.storage_config_id ||
      next.index_include !== row.index_include ||
      next.index_exclude !== row.index_exclude;
    if (indexStale) {
      await this.db.deleteFrom("fs_index").where("mount_id", "=", id).execute();
      await this.db
        .updateTable("mount_index_state")
        .set({ complete: 0, entries: 0, root_size: 0, root_files: 0, root_folders: 0 })
        .where("mount_id", "=", id)
        .execute();
    }
    return presentMount(await this.requireRow(id));
  }

  async delete(principal: Principal, id: string): Promise<void> {
    requireAdmin(principal);
    await this.requireRow(id);
    await this.db.deleteFrom("mounts").where("id", "=", id).execute();
    await this.changed();
  }

  /** GET /user/mounts: the active mounts this principal may see (the admin sees all active ones). */
  async listForUser(principal: Principal): Promise<MountDto[]> {
    const rows = await this.rows(true);
    return rows.filter((r) => canSeeMount(principal, r.mount_path)).map(presentMount);
  }

  async getForUser(principal: Principal, id: string): Promise<MountDto> {
    const row = await this.findRow(id);
    if (row?.is_active !== 1) throw notFound(MOUNT_MESSAGES.notFound, "mount_not_found");
    if (!canSeeMount(principal, row.mount_path)) throw forbidden(MOUNT_MESSAGES.noAccess, "mount_forbidden");
    return presentMount(row);
  }

  private async rows(activeOnly = false) {
    let query = this.db
      .selectFrom("mounts")
      .leftJoin("storage_configs", "storage_configs.id", "mounts.storage_config_id")
      .selectAll("mounts")
      .select("storage_configs.name as storage_config_name")
      .orderBy("mounts.sort_order")
      .orderBy("mounts.name")
      .orderBy("mounts.id");
    if (activeOnly) query = query.where("mounts.is_active", "=", 1);
    return query.execute();
  }

  private async findRow(id: string) {
    return this.db
      .selectFrom("mounts")
      .leftJoin("storage_configs", "storage_configs.id", "mounts.storage_config_id")
      .selectAll("mounts")
      .select("storage_configs.name as storage_config_name")
      .where("mounts.id", "=", id)
      .executeTakeFirst();
  }

  private async requireRow(id: string) {
    const row = await this.findRow(id);
    if (!row) throw notFound(MOUNT_MESSAGES.notFound, "mount_not_found");
    return row;
  }

  /**
   * The storage type of a mount is its config's: a client's storage_type is
   * ignored (0.7.3 forms can only send "S3", also for LOCAL configs).
   */
  private async configType(configId: string | null): Promise<StorageConfigRow["storage_type"]> {
    if (!configId) throw badRequest("Storage config is required", "validation_failed");
    let config: Awaited<ReturnType<StorageConfigService["getRow"]>>;
    try {
      config = await this.configs.getRow(configId);
    } catch (e) {
      if (isAppError(e) && e.status === 404)
        throw badRequest(MOUNT_MESSAGES.configMissing, "storage_config_not_found");
      throw e;
    }
    return config.storage_type;
  }

  /** Unique, compared case-insensitively: /Data and /data would be indistinguishable to many clients. */
  private async assertPathFree(mountPath: string, exceptId?: string): Promise<void> {
    const rows = await this.db.selectFrom("mounts").select(["id", "mount_path"]).execute();
    const lower = mountPath.toLowerCase();
    if (rows.some((r) => r.id !== exceptId && r.mount_path.toLowerCase() === lower))
      throw conflict(MOUNT_MESSAGES.pathTaken, "mount_path_taken");
  }

  /**
   * Two mounts showing overlapping folders of one storage list, search and
   * count the same objects twice; that takes an admin who says so.
   */
  private async assertNoOverlap(
    configId: string | null,
    root: string,
    allowed: boolean,
    exceptId?: string,
  ): Promise<void> {
    if (allowed || !configId) return;
    const all = await this.db.selectFrom("storage_configs").selectAll().execute();
    const config = all.find((c) => c.id === configId);
    if (!config) return;
    const place = (c: StorageConfigRow, folder: string) => {
      const loc = storageLocation(c, this.configs.dataDir);
      return { space: loc.space, folder: joinPath(loc.folder, folder) };
    };
    const mine = place(config, root);
    const others = await this.db
      .selectFrom("mounts")
      .select(["id", "name", "storage_config_id", "root"])
      .execute();
    const clash = others.find((m) => {
      const other = all.find((c) => c.id === m.storage_config_id);
      if (m.id === exceptId || !other) return false;
      const theirs = place(other, m.root);
      return (
        theirs.space === mine.space &&
        (isSameOrInside(mine.folder, theirs.folder) || isSameOrInside(theirs.folder, mine.folder))
      );
    });
    if (clash)
      throw new AppError(409, "mount_root_overlap", MOUNT_MESSAGES.rootOverlap, {
        mount_id: clash.id,
        mount_name: clash.name,
      });
  }

  /** A new mount opens on an existing (maybe empty) folder. */
  private async createRoot(row: MountRow): Promise<void> {
    if (row.root === "" || !row.storage_config_id) return;
    const { driver } = await this.configs.driverById(row.storage_config_id);
    await driver.mkdir(row.root);
  }

  private async write(run: () => Promise<unknown>): Promise<void> {
    try {
      await run();
    } catch (e) {
      if (isUniqueViolation(e)) throw conflict(MOUNT_MESSAGES.pathTaken, "mount_path_taken");
      throw e;
    }
    await this.changed();
  }
}
