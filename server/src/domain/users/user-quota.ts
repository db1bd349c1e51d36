/**
 * Per-user quotas (docs/accounts.md#quotas, decision 0065): the bytes a user owns, in total
 * (`users.quota_bytes`) and on one storage config (`user_storage_quotas`). Usage is never
 * stored: it is the sum of the sizes of the user's file shares (pending ones count the size they
 * claimed), so deleting, expiring or handing over a share changes it with nothing to keep in step.
 *
 * A share's size is claimed here, at its reservation when the size is known (a declared length,
 * a multipart total) and again at its commit with the real size: the check and the new size are
 * written in one transaction that first locks the owner's row (SELECT … FOR UPDATE on
 * PostgreSQL; SQLite's one writer serializes it), so concurrent uploads of one user are counted
 * one after the other and those that do not fit get the 507 of the storage quota.
 */
import type { Transaction } from "kysely";
import type { Db, Dialect } from "../../db/database";
import type { Database } from "../../db/schema";
import { quotaExceeded } from "../storage-configs/storage-quota";

export interface Claim {
  fileId: string;
  ownerId: string | null;
  storageConfigId: string | null;
  size: number;
}

export interface QuotaUsage {
  quota_bytes: number | null;
  used_bytes: number;
}

export class UserQuota {
  constructor(
    private readonly db: Db,
    private readonly dialect: Dialect,
  ) {}

  /**
   * Sets the share's size to `claim.size` if the owner's quotas (total, and on the share's
   * config) still hold with it; otherwise throws the 507 and changes nothing.
   */
  async claim(claim: Claim): Promise<void> {
    const { fileId, ownerId, storageConfigId, size } = claim;
    await this.db.transaction().execute(async (trx) => {
      if (ownerId) await this.checkWithin(trx, ownerId, storageConfigId, size, fileId);
      await trx.updateTable("files").set({ size }).where("id", "=", fileId).execute();
    });
  }

  private async checkWithin(
    trx: Transaction<Database>,
    ownerId: string,
    storageConfigId: string | null,
    size: number,
    fileId: string,
  ): Promise<void> {
    let owner = trx.selectFrom("users").select("quota_bytes").where("id", "=", ownerId);
    if (this.dialect === "postgres") owner = owner.forUpdate();
    const row = await owner.executeTakeFirst();
    const perConfig = storageConfigId
      ? await trx
          .selectFrom("user_storage_quotas")
          .select("quota_bytes")
          .where("user_id", "=", ownerId)
          .where("storage_config_id", "=", storageConfigId)
          .executeTakeFirst()
      : undefined;
    const limits: Array<{ quota: number; configId: string | null }> = [];
    if (row?.quota_bytes != null) limits.push({ quota: Number(row.quota_bytes), configId: null });
    if (perConfig) limits.push({ quota: Number(perConfig.quota_bytes), configId: storageConfigId });
    for (const { quota, configId } of limits) {
      const used = await this.usedBy(trx, ownerId, configId, fileId);
      if (used + size > quota) throw quotaExceeded({ total: quota, remaining: quota - used }, size);
    }
  }

  /** Bytes of the user's shares (on one config, or all), leaving one share out. */
  private async usedBy(
    db: Db | Transaction<Database>,
    ownerId: string,
    configId: string | null,
    exceptFileId?: string,
  ): Promise<number> {
    let query = db
      .selectFrom("files")
      .select((eb) => eb.fn.sum<number>("size").as("used"))
      .where("owner_id", "=", ownerId)
      // A share of an explorer file points at the tree's bytes; it adds none of its own.
      .where("file_path", "is", null);
    if (configId) query = query.where("storage_config_id", "=", configId);
    if (exceptFileId) query = query.where("id", "!=", exceptFileId);
    return Number((await query.executeTakeFirst())?.used ?? 0);
  }

  /** The user's quota and usage in total and per storage config they have a quota on. */
  async usageOf(
    ownerId: string,
  ): Promise<
    QuotaUsage & { storage: Array<{ storage_config_id: string; quota_bytes: number; used_bytes: number }> }
  > {
    const [owner, perConfig, total] = await Promise.all([
      this.db.selectFrom("users").select("quota_bytes").where("id", "=", ownerId).executeTakeFirst(),
      this.db
        .selectFrom("user_storage_quotas")
        .select(["storage_config_id", "quota_bytes"])
        .where("user_id", "=", ownerId)
        .execute(),
      this.usedBy(this.db, ownerId, null),
    ]);
    const storage = await Promise.all(
      perConfig.map(async (q) => ({
        storage_config_id: q.storage_config_id,
        quota_bytes: Number(q.quota_bytes),
        used_bytes: await this.usedBy(this.db, ownerId, q.storage_config_id),
      })),
    );
    return {
      quota_bytes: owner?.quota_bytes == null ? null : Number(owner.quota_bytes),
      used_bytes: total,
      storage,
    };
  }

  /** Replaces a user's quotas: the total (null: none) and the per-config ones given. */
  async setQuotas(
    trx: Transaction<Database>,
    userId: string,
    storage: Array<{ storage_config_id: string; quota_bytes: number | null }>,
  ): Promise<void> {
    for (const q of storage) {
      await trx
        .deleteFrom("user_storage_quotas")
        .where("user_id", "=", userId)
        .where("storage_config_id", "=", q.storage_config_id)
        .execute();
      if (q.quota_bytes !== null) {
        await trx
          .insertInto("user_storage_quotas")
          .values({ user_id: userId, storage_config_id: q.storage_config_id, quota_bytes: q.quota_bytes })
          .execute();
      }
    }
  }
}
