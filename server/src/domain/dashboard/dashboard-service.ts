/**
 * Figures for the admin dashboard: totals, storage use per config and the
 * last seven UTC days of pastes and file shares created.
 */
import type { Db } from "../../db/database";
import type { SecretBox } from "../../lib/crypto";
import { presentStorageConfig, type StorageConfigService } from "../storage-configs/storage-config-service";

const DAYS = 7;

function lastDays(now: Date): string[] {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Array.from({ length: DAYS }, (_, i) =>
    new Date(today - (DAYS - 1 - i) * 86400_000).toISOString().slice(0, 10),
  );
}

export class DashboardService {
  constructor(
    private readonly db: Db,
    private readonly configs: StorageConfigService,
    private readonly secrets: SecretBox,
  ) {}

  async stats(now = new Date()) {
    const count = async (table: "pastes" | "files" | "api_keys" | "storage_configs" | "mounts") =>
      Number(
        (
          await this.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number>().as("n"))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const days = lastDays(now);
    const since = `${days[0]}T00:00:00.000Z`;
    // Timestamps are ISO text, so the first 10 characters are the UTC date on both dialects.
    const perDay = async (table: "pastes" | "files") => {
      const rows = await this.db
        .selectFrom(table)
        .select("created_at")
        .where("created_at", ">=", since)
        .execute();
      const counts = new Map<string, number>();
      for (const r of rows)
        counts.set(r.created_at.slice(0, 10), (counts.get(r.created_at.slice(0, 10)) ?? 0) + 1);
      return days.map((d) => counts.get(d) ?? 0);
    };
    const usage = await this.configs.usageByConfig();
    const configRows = await this.db.selectFrom("storage_configs").selectAll().orderBy("name").execute();
    const buckets = configRows.map((row) => {
      const u = usage.get(row.id) ?? { file_count: 0, total_size: 0 };
      const total = row.total_storage_bytes;
      return {
        ...presentStorageConfig(row, this.secrets, u),
        usedStorage: u.total_size,
        totalStorage: total,
        fileCount: u.file_count,
        usagePercent: total ? Math.min(100, Math.round((u.total_size / total) * 100)) : 0,
        providerType: row.provider_type ?? row.storage_type,
      };
    });
    return {
      totalPastes: await count("pastes"),
      totalFiles: await count("files"),
      totalApiKeys: await count("api_keys"),
      totalS3Configs: await count("storage_configs"),
      totalMounts: await count("mounts"),
      totalStorageUsed: buckets.reduce((sum, b) => sum + b.usedStorage, 0),
      s3Buckets: buckets,
      days,
      lastWeekPastes: await perDay("pastes"),
      lastWeekFiles: await perDay("files"),
    };
  }
}
