import {
  createStorageConfigRequest,
  isRemoteStorageType,
  REMOTE_ENDPOINT_SCHEMES,
  REMOTE_PROVIDER_TYPES,
  type RemoteStorageType,
  S3_PROVIDER_TYPES,
} from "@clipshare/shared";
import { bytesFromInput, inputFromBytes, SIZE_INPUT_UNITS, type SizeInputUnit } from "../../lib/file-size";
import type {
  CheckName,
  ProviderType,
  RemotePreset,
  StorageCheck,
  StorageConfig,
  StorageConfigBody,
  StorageType,
} from "./api/storage-configs";

/**
 * The storage-config form: provider presets, values, validation with the
 * server's schema, request bodies, and the hints shown for failed checks.
 * Pure, so it is unit-tested.
 */

export const PROVIDERS: readonly ProviderType[] = S3_PROVIDER_TYPES;

/** A provider this form offers (a 0.7.3 server may store other spellings). */
function isProviderType(value: string | null): value is ProviderType {
  return value !== null && (PROVIDERS as readonly string[]).includes(value);
}

export interface ProviderPreset {
  /** Shown as the endpoint's placeholder; `{region}` is filled from the region field. */
  endpointTemplate: string;
  /** Whether the endpoint can be derived from the region alone (no account id). */
  endpointFromRegion: boolean;
  region: string;
  pathStyle: boolean;
}

export const PROVIDER_PRESETS: Record<ProviderType, ProviderPreset> = {
  "Cloudflare R2": {
    endpointTemplate: "https://<account-id>.r2.cloudflarestorage.com",
    endpointFromRegion: false,
    region: "auto",
    pathStyle: false,
  },
  "Backblaze B2": {
    endpointTemplate: "https://s3.{region}.backblazeb2.com",
    endpointFromRegion: true,
    region: "us-west-004",
    pathStyle: false,
  },
  "AWS S3": {
    endpointTemplate: "https://s3.{region}.amazonaws.com",
    endpointFromRegion: true,
    region: "us-east-1",
    pathStyle: false,
  },
  "Aliyun OSS": {
    endpointTemplate: "https://{region}.aliyuncs.com",
    endpointFromRegion: true,
    region: "oss-cn-hangzhou",
    pathStyle: false,
  },
  "Other S3 Compatible": {
    endpointTemplate: "https://s3.example.com",
    endpointFromRegion: false,
    region: "us-east-1",
    pathStyle: true,
  },
};

/** What choosing a WebDAV/SFTP/FTP preset fills in: the type and where its endpoint usually is. */
export interface RemotePresetInfo {
  type: RemoteStorageType;
  endpointTemplate: string;
  /** Typical folder on that server, as a placeholder. */
  folder: string;
  /** Whether the form shows a note on setting that server up (storageConfig.form.remotePresetNote.<preset>). */
  note: boolean;
}

export const REMOTE_PRESETS: Record<RemotePreset, RemotePresetInfo> = {
  Nextcloud: {
    type: "WEBDAV",
    endpointTemplate: "https://cloud.example.com/remote.php/dav/files/<user>/",
    folder: "clipshare",
    note: true,
  },
  ownCloud: {
    type: "WEBDAV",
    endpointTemplate: "https://cloud.example.com/remote.php/dav/files/<user>/",
    folder: "clipshare",
    note: true,
  },
  Synology: {
    type: "WEBDAV",
    endpointTemplate: "https://nas.example.com:5006/",
    folder: "home/clipshare",
    note: true,
  },
  "Hetzner Storage Box": {
    type: "SFTP",
    endpointTemplate: "sftp://u12345.your-storagebox.de:23",
    folder: "clipshare",
    note: true,
  },
  ClipShare: {
    type: "WEBDAV",
    endpointTemplate: "https://clipshare.example.com/dav/<mount>/",
    folder: "",
    note: true,
  },
  "Other WebDAV": {
    type: "WEBDAV",
    endpointTemplate: "https://files.example.com/dav/",
    folder: "clipshare",
    note: false,
  },
  "Other SFTP": {
    type: "SFTP",
    endpointTemplate: "sftp://files.example.com:22",
    folder: "srv/clipshare",
    note: false,
  },
  "Other FTP": {
    type: "FTP",
    endpointTemplate: "ftps://files.example.com:21",
    folder: "clipshare",
    note: false,
  },
};

/** The presets that come with a setup note (the generic ones have none). */
export type NotedPreset = Exclude<RemotePreset, `Other ${string}`>;

/** The preset whose setup note the form shows, or null. */
export function presetNote(preset: RemotePreset): NotedPreset | null {
  return REMOTE_PRESETS[preset].note ? (preset as NotedPreset) : null;
}

/** The presets offered for a remote type, the generic one last. */
export function remotePresetsFor(type: RemoteStorageType): RemotePreset[] {
  return REMOTE_PROVIDER_TYPES.filter((p) => REMOTE_PRESETS[p].type === type);
}

const genericPreset = (type: RemoteStorageType): RemotePreset =>
  type === "WEBDAV" ? "Other WebDAV" : type === "SFTP" ? "Other SFTP" : "Other FTP";

export const DEFAULT_SIGNATURE_EXPIRY = 3600;

export interface StorageConfigFormValues {
  storageType: StorageType;
  name: string;
  providerType: ProviderType;
  /** WebDAV/SFTP/FTP only: the preset the config was made from. */
  remotePreset: RemotePreset;
  endpointUrl: string;
  bucketName: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  pathStyle: boolean;
  defaultFolder: string;
  customHost: string;
  signatureExpiresIn: string;
  isPublic: boolean;
  quotaAmount: string;
  quotaUnit: SizeInputUnit;
  rootPath: string;
  /** SFTP only: the pinned host-key fingerprint, "" = not pinned. */
  hostKey: string;
}

export type StorageConfigField =
  | "name"
  | "endpointUrl"
  | "bucketName"
  | "region"
  | "accessKeyId"
  | "secretAccessKey"
  | "defaultFolder"
  | "customHost"
  | "signatureExpiresIn"
  | "quotaAmount"
  | "rootPath"
  | "hostKey";

export type StorageConfigErrors = Partial<Record<StorageConfigField, "required" | "invalid">>;

export { SIZE_INPUT_UNITS };

/** The endpoint a preset suggests for a region, or "" when it needs more than the region. */
export function suggestedEndpoint(provider: ProviderType, region: string): string {
  const preset = PROVIDER_PRESETS[provider];
  const r = region.trim();
  if (!preset.endpointFromRegion || !r) return "";
  return preset.endpointTemplate.replace("{region}", r);
}

export function emptyStorageConfigForm(storageType: StorageType = "S3"): StorageConfigFormValues {
  const provider: ProviderType = "Other S3 Compatible";
  return {
    storageType,
    name: "",
    providerType: provider,
    remotePreset: genericPreset(isRemoteStorageType(storageType) ? storageType : "WEBDAV"),
    endpointUrl: "",
    bucketName: "",
    region: PROVIDER_PRESETS[provider].region,
    accessKeyId: "",
    secretAccessKey: "",
    pathStyle: PROVIDER_PRESETS[provider].pathStyle,
    defaultFolder: "",
    customHost: "",
    signatureExpiresIn: String(DEFAULT_SIGNATURE_EXPIRY),
    isPublic: false,
    quotaAmount: "",
    quotaUnit: "GB",
    rootPath: "",
    hostKey: "",
  };
}

export function formFromConfig(config: StorageConfig): StorageConfigFormValues {
  const quota = inputFromBytes(config.total_storage_bytes);
  const provider = isProviderType(config.provider_type) ? config.provider_type : "Other S3 Compatible";
  return {
    storageType: config.storage_type,
    name: config.name,
    providerType: provider,
    remotePreset: isRemoteStorageType(config.storage_type)
      ? (REMOTE_PROVIDER_TYPES as readonly string[]).includes(config.provider_type ?? "")
        ? (config.provider_type as RemotePreset)
        : genericPreset(config.storage_type)
      : "Other WebDAV",
    endpointUrl: config.endpoint_url ?? "",
    bucketName: config.bucket_name ?? "",
    region: config.region ?? "",
    accessKeyId: config.access_key_id ?? "",
    secretAccessKey: config.secret_access_key ?? "",
    pathStyle: config.path_style,
    defaultFolder: config.default_folder ?? "",
    customHost: config.custom_host ?? "",
    signatureExpiresIn: String(config.signature_expires_in ?? DEFAULT_SIGNATURE_EXPIRY),
    isPublic: config.is_public,
    quotaAmount: quota.amount,
    quotaUnit: quota.unit,
    rootPath: config.root_path ?? "",
    hostKey: config.host_key ?? "",
  };
}

/**
 * Switching provider applies its preset: region and path style, and the
 * endpoint when it was empty or still the previous preset's suggestion.
 */
export function applyProvider(
  values: StorageConfigFormValues,
  provider: ProviderType,
): StorageConfigFormValues {
  const previous = PROVIDER_PRESETS[values.providerType];
  const preset = PROVIDER_PRESETS[provider];
  const regionUntouched = !values.region.trim() || values.region.trim() === previous.region;
  const region = regionUntouched ? preset.region : values.region;
  const endpointUntouched =
    !values.endpointUrl.trim() ||
    values.endpointUrl.trim() === suggestedEndpoint(values.providerType, values.region);
  return {
    ...values,
    providerType: provider,
    region,
    pathStyle: preset.pathStyle,
    endpointUrl: endpointUntouched ? suggestedEndpoint(provider, region) : values.endpointUrl,
  };
}

/** Switching the storage type to a remote one starts from that type's generic preset. */
export function applyStorageType(
  values: StorageConfigFormValues,
  type: StorageType,
): StorageConfigFormValues {
  const remotePreset = isRemoteStorageType(type) ? genericPreset(type) : values.remotePreset;
  return { ...values, storageType: type, remotePreset };
}

/** Typing a region keeps a derived endpoint in step with it. */
export function applyRegion(values: StorageConfigFormValues, region: string): StorageConfigFormValues {
  const derived = suggestedEndpoint(values.providerType, values.region);
  const follow = !values.endpointUrl.trim() || values.endpointUrl.trim() === derived;
  return {
    ...values,
    region,
    endpointUrl:
      follow && derived !== "" ? suggestedEndpoint(values.providerType, region) : values.endpointUrl,
  };
}

function quotaBytes(values: StorageConfigFormValues): number | null | "invalid" {
  if (!values.quotaAmount.trim()) return null;
  return bytesFromInput(values.quotaAmount, values.quotaUnit) ?? "invalid";
}

/**
 * The request body. On update, secrets are sent only when the user typed new
 * ones: the masked values shown in the form stay on the server.
 */
export function storageConfigBody(
  values: StorageConfigFormValues,
  mode: "create" | "edit",
  initial?: StorageConfigFormValues,
): StorageConfigBody {
  const quota = quotaBytes(values);
  const common: StorageConfigBody = {
    name: values.name.trim(),
    is_public: values.isPublic,
    total_storage_bytes: quota === "invalid" ? null : quota,
  };
  if (mode === "create") common.storage_type = values.storageType;
  if (values.storageType === "LOCAL") return { ...common, root_path: values.rootPath.trim() };
  const changed = (key: "accessKeyId" | "secretAccessKey") =>
    mode === "create" || !initial || values[key] !== initial[key];
  const credentials = (body: StorageConfigBody): StorageConfigBody => {
    if (changed("accessKeyId") && values.accessKeyId.trim()) body.access_key_id = values.accessKeyId.trim();
    if (changed("secretAccessKey") && values.secretAccessKey.trim())
      body.secret_access_key = values.secretAccessKey.trim();
    return body;
  };
  if (isRemoteStorageType(values.storageType)) {
    return credentials({
      ...common,
      provider_type: values.remotePreset,
      endpoint_url: values.endpointUrl.trim(),
      default_folder: values.defaultFolder.trim().replace(/^\/+|\/+$/g, ""),
      ...(values.storageType === "SFTP" ? { host_key: values.hostKey.trim() || null } : {}),
    });
  }

  const body: StorageConfigBody = {
    ...common,
    provider_type: values.providerType,
    endpoint_url: values.endpointUrl.trim(),
    bucket_name: values.bucketName.trim(),
    region: values.region.trim() || null,
    path_style: values.pathStyle,
    default_folder: values.defaultFolder.trim().replace(/^\/+|\/+$/g, ""),
    custom_host: values.customHost.trim() || null,
    signature_expires_in: Number(values.signatureExpiresIn.trim()),
  };
  return credentials(body);
}

const FIELD_OF_KEY: Record<string, StorageConfigField> = {
  name: "name",
  endpoint_url: "endpointUrl",
  bucket_name: "bucketName",
  region: "region",
  access_key_id: "accessKeyId",
  secret_access_key: "secretAccessKey",
  default_folder: "defaultFolder",
  custom_host: "customHost",
  signature_expires_in: "signatureExpiresIn",
  total_storage_bytes: "quotaAmount",
  root_path: "rootPath",
  host_key: "hostKey",
};

/** The endpoint's URL scheme is one its storage type speaks (S3: http/https; see REMOTE_ENDPOINT_SCHEMES). */
function endpointFits(values: StorageConfigFormValues): boolean {
  const schemes = isRemoteStorageType(values.storageType)
    ? REMOTE_ENDPOINT_SCHEMES[values.storageType]
    : ["http", "https"];
  const scheme = /^([a-z]+):\/\//i.exec(values.endpointUrl.trim())?.[1]?.toLowerCase();
  return scheme !== undefined && schemes.includes(scheme);
}

export function validateStorageConfigForm(
  values: StorageConfigFormValues,
  mode: "create" | "edit",
  initial?: StorageConfigFormValues,
): StorageConfigErrors {
  const errors: StorageConfigErrors = {};
  if (!values.name.trim()) errors.name = "required";
  if (quotaBytes(values) === "invalid") errors.quotaAmount = "invalid";
  if (values.storageType === "LOCAL") {
    if (!values.rootPath.trim()) errors.rootPath = "required";
  } else {
    const remote = isRemoteStorageType(values.storageType);
    if (!values.endpointUrl.trim()) errors.endpointUrl = "required";
    else if (!endpointFits(values)) errors.endpointUrl = "invalid";
    if (!remote && !values.bucketName.trim()) errors.bucketName = "required";
    if (mode === "create" && !values.accessKeyId.trim()) errors.accessKeyId = "required";
    if (mode === "create" && !values.secretAccessKey.trim()) errors.secretAccessKey = "required";
    if (
      mode === "edit" &&
      initial &&
      values.accessKeyId !== initial.accessKeyId &&
      !values.accessKeyId.trim()
    )
      errors.accessKeyId = "required";
    if (
      mode === "edit" &&
      initial &&
      values.secretAccessKey !== initial.secretAccessKey &&
      !values.secretAccessKey.trim()
    )
      errors.secretAccessKey = "required";
    if (!remote && !/^\d+$/.test(values.signatureExpiresIn.trim())) errors.signatureExpiresIn = "invalid";
  }
  // Formats as the server checks them (URLs, ranges, folders, absolute root path).
  const parsed = createStorageConfigRequest.safeParse(storageConfigBody(values, "create", initial));
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = FIELD_OF_KEY[String(issue.path[0])];
      if (field && !errors[field]) errors[field] = "invalid";
    }
  }
  return errors;
}

export const CHECK_ORDER: readonly CheckName[] = ["write", "read", "list", "presign", "cors"];

export type CheckHint =
  | "credentials"
  | "readBack"
  | "listPermission"
  | "presign"
  | "cors"
  | "exposeEtag"
  | "localPath";

/** What to tell the admin about a check's outcome, beyond the server's own note. */
export function checkHint(name: CheckName, check: StorageCheck, storageType: StorageType): CheckHint | null {
  if (check.success) {
    if (name === "cors" && !check.skipped && check.exposesEtag === false) return "exposeEtag";
    return null;
  }
  switch (name) {
    case "write":
      return storageType === "LOCAL" ? "localPath" : "credentials";
    case "read":
      return "readBack";
    case "list":
      return "listPermission";
    case "presign":
      return "presign";
    case "cors":
      return "cors";
  }
}

/** "passed" | "failed" | "skipped" for the badge of a check. */
export function checkState(check: StorageCheck | undefined): "passed" | "failed" | "skipped" | "missing" {
  if (!check) return "missing";
  if (!check.success) return "failed";
  return check.skipped ? "skipped" : "passed";
}
