import { z } from "zod";
import { looseBoolean, looseInt } from "./common";
import { onFirstUse } from "./on-first-use";

export const STORAGE_TYPES = ["LOCAL", "S3", "WEBDAV", "SFTP", "FTP"] as const;
export type StorageType = (typeof STORAGE_TYPES)[number];

/**
 * Types whose storage is a directory tree on another server, reached with a
 * user name and password: endpoint_url is where (WEBDAV `https://…`, SFTP
 * `sftp://host[:port]`, FTP `ftp://` plain or `ftps://` explicit TLS),
 * access_key_id the user name, secret_access_key the password and
 * default_folder the directory on that server.
 */
export const REMOTE_STORAGE_TYPES = ["WEBDAV", "SFTP", "FTP"] as const;
export type RemoteStorageType = (typeof REMOTE_STORAGE_TYPES)[number];
export const isRemoteStorageType = (type: string): type is RemoteStorageType =>
  (REMOTE_STORAGE_TYPES as readonly string[]).includes(type);

/** URL schemes each remote type accepts for endpoint_url. */
export const REMOTE_ENDPOINT_SCHEMES: Record<RemoteStorageType, readonly string[]> = {
  WEBDAV: ["http", "https"],
  SFTP: ["sftp"],
  FTP: ["ftp", "ftps"],
};

/** Labels a remote config may carry in provider_type (the admin form's presets). */
/** An SSH host-key fingerprint as `ssh-keygen -lf` prints it: "SHA256:" and 43 base64 characters. */
export const SFTP_HOST_KEY_PATTERN = /^SHA256:[A-Za-z0-9+/]{43}$/;

export const REMOTE_PROVIDER_TYPES = [
  "Nextcloud",
  "ownCloud",
  "Synology",
  "Hetzner Storage Box",
  "ClipShare",
  "Other WebDAV",
  "Other SFTP",
  "Other FTP",
] as const;

export const S3_PROVIDER_TYPES = [
  "Cloudflare R2",
  "Backblaze B2",
  "AWS S3",
  "Aliyun OSS",
  "Other S3 Compatible",
] as const;

/**
 * Other spellings accepted for provider_type, stored as sent so a client's edit
 * form finds its own value again: 0.7.3's form names the generic provider "Other".
 */
export const S3_PROVIDER_ALIASES = ["Other"] as const;

/** Placeholder the API returns instead of a stored secret; sending it back keeps the secret. */
export const MASKED_SECRET = "********";

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .nullable()
    .optional()
    .transform((v) => (v === "" ? null : v));

/** An endpoint of any storage type; the service checks the scheme against the type. */
const endpointUrl = onFirstUse(() =>
  z
    .string()
    .trim()
    .max(2048)
    .refine((v) => /^(https?|sftp|ftps?):\/\/[^\s/]+/i.test(v), "URL must be http, https, sftp, ftp or ftps"),
);

const httpUrl = onFirstUse(() =>
  z
    .string()
    .trim()
    .max(2048)
    .refine((v) => /^https?:\/\/[^\s/]+/i.test(v), "URL must be http or https"),
);

const folder = onFirstUse(() =>
  z
    .string()
    .trim()
    .max(512)
    .refine(
      (v) => !v.split("/").some((s) => s === ".." || s === "."),
      "Default folder may not contain . or .. segments",
    )
    .transform((v) => v.replace(/^\/+|\/+$/g, "")),
);

const storageConfigFields = () => ({
  name: z
    .string({ error: "Name is required" })
    .trim()
    .min(1, "Name is required")
    .max(100, "Name may be at most 100 characters"),
  storage_type: z
    .enum(STORAGE_TYPES, { error: `storage_type must be one of: ${STORAGE_TYPES.join(", ")}` })
    .optional(),
  provider_type: z
    .enum([...S3_PROVIDER_TYPES, ...S3_PROVIDER_ALIASES, ...REMOTE_PROVIDER_TYPES], {
      error: `provider_type must be one of: ${[...S3_PROVIDER_TYPES, ...REMOTE_PROVIDER_TYPES].join(", ")}`,
    })
    .optional(),
  endpoint_url: endpointUrl.optional(),
  bucket_name: z.string().trim().min(1, "Bucket name is required").max(255).optional(),
  region: optionalText(64),
  access_key_id: z.string().trim().max(512).optional(),
  secret_access_key: z.string().trim().max(1024).optional(),
  path_style: looseBoolean.optional(),
  default_folder: folder.optional(),
  custom_host: z
    .union([httpUrl, z.literal(""), z.null()])
    .optional()
    .transform((v) => (v === "" ? null : v)),
  /** SFTP only: the server's pinned host key; "" or null = not pinned. */
  host_key: z
    .union([
      z
        .string()
        .trim()
        .regex(
          SFTP_HOST_KEY_PATTERN,
          "host_key must be SHA256:<43 base64 characters>, as ssh-keygen -lf prints it",
        ),
      z.literal(""),
      z.null(),
    ])
    .optional()
    .transform((v) => (v === "" ? null : v)),
  // An empty number field of a form (0.7.3 sends "") means "not set": the default.
  signature_expires_in: z
    .union([
      z.literal("").transform(() => undefined),
      looseInt.refine((v) => v >= 60 && v <= 7 * 86400, "signature_expires_in must be 60-604800 seconds"),
    ])
    .optional(),
  is_public: looseBoolean.optional(),
  total_storage_bytes: z
    .union([
      looseInt.refine((v) => v > 0, "total_storage_bytes must be positive"),
      z.null(),
      z.literal("").transform(() => null),
    ])
    .optional(),
  /** LOCAL only: absolute directory on the server. */
  root_path: z
    .string()
    .trim()
    .max(1024)
    .refine((v) => v.startsWith("/"), "root_path must be an absolute path")
    .nullable()
    .optional()
    .transform((v) => v ?? undefined),
});

export const createStorageConfigRequest = onFirstUse(() => z.object(storageConfigFields()));
export const updateStorageConfigRequest = onFirstUse(() => {
  const fields = storageConfigFields();
  return z.object({ ...fields, name: fields.name.optional() });
});
export type CreateStorageConfigRequest = z.input<typeof createStorageConfigRequest>;
