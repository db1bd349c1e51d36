/**
 * Figures for the admin dashboard: totals, storage use per config and the
 * last seven UTC days of pastes and file shares created, and the latest shares.
 */
import {
  type BucketUsage,
  DASHBOARD_RECENT_SHARES,
  type DashboardStats,
  lastUtcDays,
  type RecentShare,
} from "@clipshare/shared";
import type { Db } from "../../db/database";
import type { SecretBox } from "../../lib/crypto";
import { presentStorageConfig, type StorageConfigService } from "../storage-configs/storage-config-service";

export class DashboardService {
  constructor(
    private readonly db: Db,
    private readonly configs: StorageConfigService,
    private readonly secrets: SecretBox,
  ) {}

  async stats(now = new Date()): Promise<DashboardStats> {
    const count = async (table: "pastes" | "files" | "api_keys" | "storage_configs" | "mounts") =>
      Number(
        (
          await this.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number>().as("n"))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const days = lastUtcDays(now);
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
    const buckets = configRows.map((row): BucketUsage => {
      const u = usage.get(row.id) ?? { file_count: 0, total_size: 0 };
      const total = row.total_storage_bytes;
      return {
        ...presentStorageConfig(row, this.secrets, u),
        usage: u,
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
      recentShares: await this.recentShares(),
    };
  }

  /** The newest pastes and finished file shares, newest first. Pending uploads are not shares yet. */
  private async recentShares(): Promise<RecentShare[]> {
    const pastes = await this.db
      .selectFrom("pastes")
      .select(["id", "slug", "remark", "password_hash", "expires_at", "created_at"])
      .orderBy("created_at", "desc")
      .limit(DASHBOARD_RECENT_SHARES)
      .execute();
    const files = await this.db
      .selectFrom("files")
      .select(["id", "slug", "filename", "size", "password_hash", "expires_at", "created_at"])
      .where("status", "=", "active")
      .orderBy("created_at", "desc")
      .limit(DASHBOARD_RECENT_SHARES)
      .execute();
    const shares: RecentShare[] = [
      ...pastes.map((p) => ({
        type: "paste" as const,
        id: p.id,
        slug: p.slug,
        title: p.remark,
        size: null,
        has_password: p.password_hash !== null,
        expires_at: p.expires_at,
        created_at: p.created_at,
      })),
      ...files.map((f) => ({
        type: "file" as const,
        id: f.id,
        slug: f.slug,
        title: f.filename,
        size: Number(f.size),
        has_password: f.password_hash !== null,
        expires_at: f.expires_at,
        created_at: f.created_at,
      })),
    ];
    return shares.sort((a, b) => b.created_at.localeCompare(a.created_at)).slice(0, DASHBOARD_RECENT_SHARES);
  }
}
