import type {
  REMOTE_PROVIDER_TYPES,
  S3_PROVIDER_TYPES,
  StorageCheck as StorageCheckDto,
  StorageConfigDto,
  StorageTestOutcome as StorageTestOutcomeDto,
  StorageType,
} from "@clipshare/shared";
import { api } from "../../../lib/api";
import type { AbsentOn073 } from "../../../lib/wire-types";

export type ProviderType = (typeof S3_PROVIDER_TYPES)[number];
/** A preset of a WebDAV, SFTP or FTP config, stored as its provider_type. */
export type RemotePreset = (typeof REMOTE_PROVIDER_TYPES)[number];
export type { StorageType };

/** A row of GET /api/s3-configs: secrets are masked, never returned. */
export type StorageConfig = AbsentOn073<StorageConfigDto, "has_credentials" | "admin_id">;

/** Body of POST /api/s3-configs and PUT /api/s3-configs/:id. */
export interface StorageConfigBody {
  name?: string;
  storage_type?: StorageType;
  provider_type?: ProviderType | RemotePreset;
  endpoint_url?: string;
  bucket_name?: string;
  region?: string | null;
  access_key_id?: string;
  secret_access_key?: string;
  path_style?: boolean;
  default_folder?: string;
  custom_host?: string | null;
  /** SFTP only: the pinned host-key fingerprint, null = not pinned. */
  host_key?: string | null;
  signature_expires_in?: number;
  is_public?: boolean;
  total_storage_bytes?: number | null;
  root_path?: string;
}

export type CheckName = "write" | "read" | "list" | "presign" | "cors";

/** One check of POST /api/s3-configs/:id/test (`skipped` and `hint` where a check could not run here; `hostKey`: the SFTP server's fingerprint). */
export type StorageCheck = StorageCheckDto & { skipped?: boolean; hint?: string | null; hostKey?: string };

/** data of POST /api/s3-configs/:id/test; a 0.7.3 server may leave checks out. */
export type StorageTestOutcome = Omit<StorageTestOutcomeDto, "result"> & {
  result: Partial<Record<CheckName, StorageCheck>>;
};

const idPath = (id: string) => `/s3-configs/${encodeURIComponent(id)}`;

export const storageConfigsApi = {
  list: (signal?: AbortSignal) => api.get<StorageConfig[]>("/s3-configs", { signal }),
  create: (body: StorageConfigBody) => api.post<StorageConfig>("/s3-configs", body),
  update: (id: string, body: StorageConfigBody) => api.put<StorageConfig>(idPath(id), body),
  remove: (id: string) => api.delete<null>(idPath(id)),
  setDefault: (id: string) => api.put<null>(`${idPath(id)}/set-default`),
  // The checks talk to the storage and may take a while (timeouts, slow endpoints).
  test: (id: string) => api.post<StorageTestOutcome>(`${idPath(id)}/test`, undefined, { timeoutMs: 120_000 }),
};
