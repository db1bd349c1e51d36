/**
 * Storage configurations (LOCAL directories, S3 buckets, WebDAV/SFTP/FTP
 * servers) and the drivers
 * built from them. Credentials are sealed with AES-256-GCM and never leave the
 * server: the API shows a masked access key id and a placeholder secret, and a
 * placeholder sent back on update keeps the stored value.
 */
import { randomUUID } from "node:crypto";
import { mkdirSync, statfsSync } from "node:fs";
import path from "node:path";
import {
  type createStorageConfigRequest,
  DEFAULT_LOCAL_STORAGE_NAME,
  isRemoteStorageType,
  MASKED_SECRET,
  REMOTE_ENDPOINT_SCHEMES,
  type RemoteStorageType,
  type StorageConfigDto,
  type StorageType,
  type StorageUsage,
  type updateStorageConfigRequest,
} from "@clipshare/shared";
import type { z } from "zod";
import type { Principal } from "../../auth/principal";
import type { Db } from "../../db/database";
import { nowIso } from "../../db/database";
import type { StorageConfigRow } from "../../db/schema";
import { badRequest, conflict, forbidden, notFound } from "../../errors";
import type { SecretBox } from "../../lib/crypto";
import type { DriverFactory, StorageDriverConfig } from "../../storage/create-driver";
import type { StorageDriver } from "../../storage/types";
import type { StorageEndpointPolicy } from "./endpoint-policy";
import { StorageQuota } from "./storage-quota";

type CreateInput = z.output<typeof createStorageConfigRequest>;
type UpdateInput = z.output<typeof updateStorageConfigRequest>;

const DEFAULT_SIGNATURE_EXPIRY = 3600;

export function maskAccessKey(value: string): string {
  if (value.length <= 8) return "*".repeat(value.length);
  return `${value.slice(0, 4)}${"*".repeat(Math.min(12, value.length - 8))}${value.slice(-4)}`;
}

/** What 0.7.3 clients show for a LOCAL config's provider ("Local storage (Local)"). */
export const LOCAL_PROVIDER = "Local";

/** Bytes the file system holding `dir` has in all; null when it cannot be read. */
function diskCapacity(dir: string | null): number | null {
  if (!dir) return null;
  try {
    const stats = statfsSync(dir);
    return stats.blocks * stats.bsize;
  } catch {
    return null;
  }
}

/** What the API shows of a config: never a secret. */
export function presentStorageConfig(
  row: StorageConfigRow,
  secrets: SecretBox,
  usage?: StorageUsage,
): StorageConfigDto {
  let accessKeyMasked: string | null = null;
  if (row.access_key_id_enc) {
    try {
      accessKeyMasked = maskAccessKey(secrets.open(row.access_key_id_enc));
    } catch {
      accessKeyMasked = MASKED_SECRET;
    }
  }
  // A LOCAL config has no provider, endpoint or bucket quota; 0.7.3 clients show
  // those fields, so it answers with its kind, its directory and its disk's size.
  const local = row.storage_type === "LOCAL";
  return {
    id: row.id,
    name: row.name,
    storage_type: row.storage_type as StorageType,
    provider_type: row.provider_type ?? (local ? LOCAL_PROVIDER : null),
    endpoint_url: row.endpoint_url ?? (local ? row.root_path : null),
    bucket_name: row.bucket_name,
    region: row.region,
    access_key_id: accessKeyMasked,
    secret_access_key: row.secret_access_key_enc ? MASKED_SECRET : null,
    has_credentials: row.access_key_id_enc !== null && row.secret_access_key_enc !== null,
    path_style: row.path_style === 1,
    default_folder: row.default_folder,
    root_path: row.root_path,
    custom_host: row.custom_host,
    host_key: row.host_key,
    signature_expires_in: row.signature_expires_in,
    is_public: row.is_public === 1,
    is_default: row.is_default === 1,
    total_storage_bytes: row.total_storage_bytes ?? (local ? diskCapacity(row.root_path) : null),
    admin_id: row.admin_id,
    created_at: row.created_at,
    updated_at: row.updated_at,
    last_used: row.last_used,
    ...(usage ? { usage } : {}),
  };
}

export class StorageConfigService {
  /** Drivers are cheap to keep and costly to rebuild (S3 clients); keyed by id, rebuilt when the row changes. */
  private readonly drivers = new Map<string, { version: string; driver: StorageDriver }>();
  /** The quota rule every path that adds bytes to a config applies. */
  readonly quota: StorageQuota;

  constructor(
    private readonly db: Db,
    /** Builds a driver from its settings (context.ts picks the implementation). */
    private readonly createDriver: DriverFactory,
    private readonly secrets: SecretBox,
    readonly dataDir: string,
    readonly endpoints: StorageEndpointPolicy,
  ) {
    this.quota = new StorageQuota(db);
  }

  /** First run: a LOCAL config under DATA_DIR/files, marked default, so uploads work with no setup. */
  async ensureDefaultLocal(): Promise<void> {
    const any = await this.db.selectFrom("storage_configs").select("id").limit(1).executeTakeFirst();
    if (any) return;
    const root = path.join(this.dataDir, "files");
    mkdirSync(root, { recursive: true, mode: 0o700 });
    const now = nowIso();
    await this.db
      .insertInto("storage_configs")
      .values({
        ...emptyRow(),
        id: randomUUID(),
        name: DEFAULT_LOCAL_STORAGE_NAME,
        storage_type: "LOCAL",
        root_path: root,
        is_default: 1,
        is_public: 1,
        created_at: now,
        updated_at: now,
      })
      .execute();
  }

  /** Admin: every config. Key with FILE_SHARE: public ones. */
  async list(principal: Principal) {
    let query = this.db
      .selectFrom("storage_configs")
      .selectAll()
      .orderBy("is_default", "desc")
      .orderBy("name");
    if (principal.kind !== "admin") query = query.where("is_public", "=", 1);
    const rows = await query.execute();
    const usage = await this.usageByConfig();
    return rows.map((row) =>
      presentStorageConfig(row, this.secrets, usage.get(row.id) ?? { file_count: 0, total_size: 0 }),
    );
  }

  async get(principal: Principal, id: string) {
    const row = await this.requireUsable(principal, id);
    const usage = await this.usageByConfig(id);
    return presentStorageConfig(row, this.secrets, usage.get(id) ?? { file_count: 0, total_size: 0 });
  }

  /** A row as the API shows it (no usage). */
  present(row: StorageConfigRow): StorageConfigDto {
    return presentStorageConfig(row, this.secrets);
  }

  async getRow(id: string): Promise<StorageConfigRow> {
    const row = await this.db
      .selectFrom("storage_configs")
      .selectAll()
      .where("id", "=", id)
      .executeTakeFirst();
    if (!row) throw notFound("Storage config does not exist", "storage_config_not_found");
    return row;
  }

  /** A config the principal may store into: admin any, key only public ones. */
  async requireUsable(principal: Principal, id: string): Promise<StorageConfigRow> {
    const row = await this.getRow(id);
    if (principal.kind !== "admin" && row.is_public !== 1) {
      throw forbidden("API-key users can only use public storage configs", "storage_config_forbidden");
    }
    return row;
  }

  /** The config an upload goes to when none is named: the default, else the first usable one. */
  async defaultFor(principal: Principal): Promise<StorageConfigRow> {
    let query = this.db
      .selectFrom("storage_configs")
      .selectAll()
      .orderBy("is_default", "desc")
      .orderBy("created_at");
    if (principal.kind !== "admin") query = query.where("is_public", "=", 1);
    const row = await query.executeTakeFirst();
    if (!row) {
      throw badRequest(
        principal.kind === "admin"
          ? "No storage config exists; add one in the admin panel"
          : "No public storage config is available",
        "no_storage_config",
      );
    }
    return row;
  }

  async create(adminId: string, input: CreateInput) {
    const type: StorageType = input.storage_type ?? "S3";
    const now = nowIso();
    const row: StorageConfigRow = {
      ...emptyRow(),
      id: randomUUID(),
      name: input.name,
      storage_type: type,
      admin_id: adminId,
      created_at: now,
      updated_at: now,
    };
    this.applyFields(row, input, true);
    validateComplete(row);
    if (type !== "LOCAL") await this.endpoints.checkOnSave(policyEndpoint(row));
    if (type === "LOCAL") mkdirSync(row.root_path!, { recursive: true });
    const first = !(await this.db.selectFrom("storage_configs").select("id").limit(1).executeTakeFirst());
    if (first) row.is_default = 1;
    await this.db.insertInto("storage_configs").values(row).execute();
    return presentStorageConfig(row, this.secrets);
  }

  async update(id: string, input: UpdateInput) {
    const row = await this.getRow(id);
    if (input.storage_type && input.storage_type !== row.storage_type) {
      throw badRequest(
        "The storage type of a config cannot change; create a new config",
        "storage_type_immutable",
      );
    }
    const next = { ...row, updated_at: nowIso() };
    if (input.name !== undefined) next.name = input.name;
    this.applyFields(next, input, false);
    validateComplete(next);
    if (next.storage_type !== "LOCAL" && next.endpoint_url !== row.endpoint_url)
      await this.endpoints.checkOnSave(policyEndpoint(next));
    if (next.storage_type === "LOCAL" && next.root_path !== row.root_path)
      mkdirSync(next.root_path!, { recursive: true });
    await this.db.updateTable("storage_configs").set(next).where("id", "=", id).execute();
    this.drivers.delete(id);
    return presentStorageConfig(next, this.secrets);
  }

  async delete(id: string): Promise<void> {
    await this.getRow(id);
    const files = await this.db
      .selectFrom("files")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("storage_config_id", "=", id)
      .executeTakeFirstOrThrow();
    const mounts = await this.db
      .selectFrom("mounts")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("storage_config_id", "=", id)
      .executeTakeFirstOrThrow();
    const fileCount = Number(files.n);
    const mountCount = Number(mounts.n);
    if (fileCount > 0 || mountCount > 0) {
      const parts = [
        fileCount > 0 ? `${fileCount} files` : null,
        mountCount > 0 ? `${mountCount} mount points` : null,
      ].filter(Boolean);
      throw conflict(
        `Cannot delete this config because ${parts.join(" and ")} are using it`,
        "storage_config_in_use",
      );
    }
    await this.db.deleteFrom("storage_configs").where("id", "=", id).execute();
    this.drivers.delete(id);
  }

  async setDefault(id: string): Promise<void> {
    await this.getRow(id);
    await this.db.transaction().execute(async (trx) => {
      await trx.updateTable("storage_configs").set({ is_default: 0 }).where("is_default", "=", 1).execute();
      await trx
        .updateTable("storage_configs")
        .set({ is_default: 1, updated_at: nowIso() })
        .where("id", "=", id)
        .execute();
    });
  }

  /** The driver for a config row, cached until the row changes. */
  driverFor(row: StorageConfigRow): StorageDriver {
    const cached = this.drivers.get(row.id);
    if (cached && cached.version === row.updated_at) return cached.driver;
    const driver =
      row.storage_type === "LOCAL"
        ? this.createDriver({ type: "LOCAL", root: row.root_path ?? path.join(this.dataDir, "files") })
        : isRemoteStorageType(row.storage_type)
          ? this.createDriver(this.remoteSettings(row, row.storage_type))
          : this.createDriver({
              type: "S3",
              endpoint: row.endpoint_url ?? "",
              region: row.region || "us-east-1",
              bucket: row.bucket_name ?? "",
              accessKeyId: row.access_key_id_enc ? this.secrets.open(row.access_key_id_enc) : "",
              secretAccessKey: row.secret_access_key_enc ? this.secrets.open(row.secret_access_key_enc) : "",
              pathStyle: row.path_style === 1,
              defaultFolder: row.default_folder,
              customHost: row.custom_host ?? undefined,
              signatureExpiresIn: row.signature_expires_in,
              providerType: row.provider_type ?? "Other S3 Compatible",
              lookup: this.endpoints.lookupFor(row.endpoint_url),
            });
    this.drivers.set(row.id, { version: row.updated_at, driver });
    return driver;
  }

  /** Driver settings of a WebDAV, SFTP or FTP config (see REMOTE_STORAGE_TYPES for the field mapping). */
  private remoteSettings(row: StorageConfigRow, type: RemoteStorageType): StorageDriverConfig {
    const url = new URL(row.endpoint_url ?? "");
    const login = {
      username: row.access_key_id_enc ? this.secrets.open(row.access_key_id_enc) : "",
      password: row.secret_access_key_enc ? this.secrets.open(row.secret_access_key_enc) : "",
      folder: row.default_folder,
      lookup: this.endpoints.lookupFor(policyEndpoint(row)),
      // Parts of multipart uploads wait on this server's disk until the upload completes.
      partsDir: path.join(this.dataDir, "tmp", "parts", row.id),
    };
    const host = url.hostname.replace(/^\[|\]$/g, "");
    const port = url.port ? Number(url.port) : undefined;
    if (type === "WEBDAV") return { type, url: row.endpoint_url ?? "", ...login };
    if (type === "SFTP") return { type, host, port, hostKey: row.host_key ?? undefined, ...login };
    return { type, host, port, secure: url.protocol === "ftps:", ...login };
  }

  async driverById(id: string): Promise<{ row: StorageConfigRow; driver: StorageDriver }> {
    const row = await this.getRow(id);
    return { row, driver: this.driverFor(row) };
  }

  async touch(id: string): Promise<void> {
    await this.db.updateTable("storage_configs").set({ last_used: nowIso() }).where("id", "=", id).execute();
  }

  /** Bytes of active shares stored on each config (quota checks, dashboard). */
  async usageByConfig(onlyId?: string): Promise<Map<string, { file_count: number; total_size: number }>> {
    let query = this.db
      .selectFrom("files")
      .select((eb) => [
        "storage_config_id",
        eb.fn.countAll<number>().as("file_count"),
        eb.fn.sum<number>("size").as("total_size"),
      ])
      .where("file_path", "is", null)
      .groupBy("storage_config_id");
    if (onlyId) query = query.where("storage_config_id", "=", onlyId);
    const rows = await query.execute();
    return new Map(
      rows.map((r) => [
        r.storage_config_id ?? "",
        { file_count: Number(r.file_count), total_size: Number(r.total_size ?? 0) },
      ]),
    );
  }

  private applyFields(row: StorageConfigRow, input: UpdateInput, creating: boolean): void {
    // A value is "unchanged" when absent, empty, all stars, or exactly what the API
    // showed for the stored one: updates may send back what GET returned.
    const unchanged = (
      value: string | undefined,
      sealed: string | null,
      shown: (plain: string) => string,
    ) => {
      if (value === undefined || value === "" || value === MASKED_SECRET || /^[*]+$/.test(value)) return true;
      if (!sealed) return false;
      try {
        return value === shown(this.secrets.open(sealed));
      } catch {
        return false;
      }
    };
    if (input.provider_type !== undefined) row.provider_type = input.provider_type;
    if (input.endpoint_url !== undefined) row.endpoint_url = input.endpoint_url.replace(/\/+$/, "");
    if (input.bucket_name !== undefined) row.bucket_name = input.bucket_name;
    if (input.region !== undefined) row.region = input.region;
    if (!unchanged(input.access_key_id, row.access_key_id_enc, maskAccessKey)) {
      row.access_key_id_enc = this.secrets.seal(input.access_key_id!);
    }
    if (!unchanged(input.secret_access_key, row.secret_access_key_enc, () => MASKED_SECRET)) {
      row.secret_access_key_enc = this.secrets.seal(input.secret_access_key!);
    }
    if (input.path_style !== undefined) row.path_style = input.path_style ? 1 : 0;
    if (input.default_folder !== undefined) row.default_folder = input.default_folder;
    if (input.custom_host !== undefined) row.custom_host = input.custom_host?.replace(/\/+$/, "") ?? null;
    if (input.host_key !== undefined) row.host_key = input.host_key;
    if (input.signature_expires_in !== undefined) row.signature_expires_in = input.signature_expires_in;
    if (input.is_public !== undefined) row.is_public = input.is_public ? 1 : 0;
    if (input.total_storage_bytes !== undefined) row.total_storage_bytes = input.total_storage_bytes;
    if (input.root_path !== undefined) row.root_path = path.resolve(input.root_path);
    if (creating && row.storage_type === "S3" && !row.provider_type)
      row.provider_type = "Other S3 Compatible";
  }
}

/**
 * The endpoint as the endpoint policy reads it (an http(s) URL whose host and
 * port STORAGE_ENDPOINT_ALLOW names): an sftp/ftp endpoint keeps its host and
 * gets its protocol's default port spelled out.
 */
function policyEndpoint(row: StorageConfigRow): string | null {
  if (!row.endpoint_url || !isRemoteStorageType(row.storage_type)) return row.endpoint_url;
  const url = new URL(row.endpoint_url);
  const defaults: Record<string, string> = { "sftp:": "22", "ftp:": "21", "ftps:": "21" };
  const port = defaults[url.protocol] ? url.port || defaults[url.protocol] : url.port;
  return `${url.protocol === "http:" ? "http" : "https"}://${url.host.replace(/:\d+$/, "")}${port ? `:${port}` : ""}`;
}

function validateComplete(row: StorageConfigRow): void {
  if (row.host_key && row.storage_type !== "SFTP")
    throw badRequest("host_key is only for SFTP storage", "validation_failed");
  if (row.storage_type === "LOCAL") {
    if (!row.root_path) throw badRequest("Missing required field: root_path", "validation_failed");
    return;
  }
  if (isRemoteStorageType(row.storage_type)) {
    const missing = [
      ["endpoint_url", row.endpoint_url],
      ["access_key_id", row.access_key_id_enc],
      ["secret_access_key", row.secret_access_key_enc],
    ].find(([, v]) => !v);
    if (missing) throw badRequest(`Missing required field: ${missing[0]}`, "validation_failed");
    const schemes = REMOTE_ENDPOINT_SCHEMES[row.storage_type];
    const scheme = row.endpoint_url!.slice(0, row.endpoint_url!.indexOf(":")).toLowerCase();
    if (!schemes.includes(scheme)) {
      throw badRequest(
        `endpoint_url of a ${row.storage_type} storage must start with ${schemes.map((s) => `${s}://`).join(" or ")}`,
        "validation_failed",
      );
    }
    return;
  }
  const missing = [
    ["endpoint_url", row.endpoint_url],
    ["bucket_name", row.bucket_name],
    ["access_key_id", row.access_key_id_enc],
    ["secret_access_key", row.secret_access_key_enc],
  ].find(([, v]) => !v);
  if (missing) throw badRequest(`Missing required field: ${missing[0]}`, "validation_failed");
  if (!/^https?:\/\//i.test(row.endpoint_url ?? "")) {
    throw badRequest("URL must be http or https", "validation_failed");
  }
}

/** A config row with every backend-specific column unset, as a new config starts. */
export function emptyRow(): Omit<
  StorageConfigRow,
  "id" | "name" | "storage_type" | "created_at" | "updated_at"
> {
  return {
    provider_type: null,
    endpoint_url: null,
    bucket_name: null,
    region: null,
    access_key_id_enc: null,
    secret_access_key_enc: null,
    path_style: 0,
    default_folder: "",
    root_path: null,
    custom_host: null,
    host_key: null,
    signature_expires_in: DEFAULT_SIGNATURE_EXPIRY,
    is_public: 0,
    is_default: 0,
    total_storage_bytes: null,
    admin_id: null,
    last_used: null,
  };
}
