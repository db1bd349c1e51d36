/**
 * Admin-editable system settings. A typed registry defines every key, its
 * default and description; values are stored as strings (the 0.7.3 wire form)
 * in system_settings and seeded at start-up. Reads go to the database each
 * time (a primary-key lookup) so every instance sees a change at once.
 */
import {
  DEFAULT_MAX_UPLOAD_SIZE_MB,
  type SystemSettingRow,
  UNIT_BYTES,
  type UpdateSystemSettingsRequest,
  type UploadSizeUnit,
  updateSystemSettingsRequest,
} from "@clipshare/shared";
import type { Db } from "../../db/database";
import { nowIso } from "../../db/database";
import { type PreparedQuery, preparedQuery } from "../../db/prepared-query";

export interface SystemSettings {
  max_upload_size: number;
  max_upload_size_unit: UploadSizeUnit;
  webdav_upload_mode: "direct" | "multipart";
  proxy_sign_all: boolean;
  proxy_sign_expires: number;
  access_log_privacy_mode: boolean;
  access_log_ip: boolean;
  access_log_retention_days: number;
  public_webdav: boolean;
  public_download_limit: number;
  require_admin_second_factor: boolean;
}

type Key = keyof SystemSettings;

const REGISTRY: { [K in Key]: { default: SystemSettings[K]; description: string } } = {
  max_upload_size: {
    default: DEFAULT_MAX_UPLOAD_SIZE_MB,
    description: "Maximum size of one uploaded file, in max_upload_size_unit",
  },
  max_upload_size_unit: { default: "MB", description: "Unit of max_upload_size: KB, MB or GB" },
  webdav_upload_mode: {
    default: "direct",
    description: "How WebDAV PUT writes to storage: direct or multipart",
  },
  proxy_sign_all: { default: true, description: "Require a signature on every proxied file link" },
  proxy_sign_expires: {
    default: 0,
    description: "Default lifetime of proxy signatures in seconds (0 = never expires)",
  },
  access_log_privacy_mode: {
    default: false,
    description: "Privacy mode: shares keep their view counts but no access log entries",
  },
  access_log_ip: { default: false, description: "Store the visitor's IP address in share access logs" },
  access_log_retention_days: {
    default: 90,
    description: "Access log entries older than this many days are deleted (0 = kept while the share exists)",
  },
  public_webdav: {
    default: false,
    description: "WebDAV clients without credentials may read the public part of the mounts",
  },
  public_download_limit: {
    default: 600,
    description:
      "Downloads per hour one address may make from the public part without credentials (0 = no limit)",
  },
  require_admin_second_factor: {
    default: false,
    description:
      "Administrators without a second factor may only set one up (in My account) until they have one",
  },
};

const KEYS = Object.keys(REGISTRY) as Key[];

function decode<K extends Key>(key: K, raw: string | undefined): SystemSettings[K] {
  const fallback = REGISTRY[key].default;
  if (raw === undefined) return fallback;
  if (typeof fallback === "number") {
    const n = Number(raw);
    return (Number.isFinite(n) ? n : fallback) as SystemSettings[K];
  }
  if (typeof fallback === "boolean") return (raw === "true") as SystemSettings[K];
  return raw as SystemSettings[K];
}

type StoredSetting = { key: string; value: string };

export class SettingsService {
  /** Read by every upload and every second by the access log: compiled once, on first use. */
  private readAll: PreparedQuery<Record<string, never>, StoredSetting> | undefined;

  constructor(private readonly db: Db) {}

  /** Inserts defaults for keys that are missing; never overwrites. */
  async seed(): Promise<void> {
    const now = nowIso();
    const insertDefault = preparedQuery<{ key: Key }, never>(this.db, (param) =>
      this.db
        .insertInto("system_settings")
        .values({
          key: param("key"),
          value: param(({ key }) => String(REGISTRY[key].default)),
          description: param(({ key }) => REGISTRY[key].description),
          created_at: now,
          updated_at: now,
        })
        .onConflict((oc) => oc.column("key").doNothing()),
    );
    for (const key of KEYS) await insertDefault({ key });
  }

  async getAll(): Promise<SystemSettings> {
    this.readAll ??= preparedQuery(this.db, () =>
      this.db.selectFrom("system_settings").select(["key", "value"]).where("key", "in", KEYS),
    );
    const rows = await this.readAll({});
    const map = new Map(rows.map((r) => [r.key, r.value]));
    return Object.fromEntries(KEYS.map((k) => [k, decode(k, map.get(k))])) as unknown as SystemSettings;
  }

  /** Rows for the admin screen, ordered by key. */
  async listRows(): Promise<SystemSettingRow[]> {
    return this.db
      .selectFrom("system_settings")
      .select(["key", "value", "description", "created_at", "updated_at"])
      .where("key", "in", KEYS)
      .orderBy("key")
      .execute();
  }

  async update(input: UpdateSystemSettingsRequest): Promise<SystemSettings> {
    const data = updateSystemSettingsRequest.parse(input);
    const now = nowIso();
    await this.db.transaction().execute(async (trx) => {
      for (const key of KEYS) {
        const value = data[key];
        if (value === undefined) continue;
        await trx
          .insertInto("system_settings")
          .values({
            key,
            value: String(value),
            description: REGISTRY[key].description,
            created_at: now,
            updated_at: now,
          })
          .onConflict((oc) => oc.column("key").doUpdateSet({ value: String(value), updated_at: now }))
          .execute();
      }
    });
    return this.getAll();
  }

  async maxUploadBytes(): Promise<number> {
    const s = await this.getAll();
    return s.max_upload_size * UNIT_BYTES[s.max_upload_size_unit];
  }
}
