import { createMountRequest, type StorageType } from "@clipshare/shared";
import type { TranslationKey } from "../../i18n";

/** The mount form's fields as typed (strings for numbers, so half-typed input survives). */
export interface MountForm {
  name: string;
  mount_path: string;
  /** Folder inside the storage the mount shows; empty = the whole storage. */
  root: string;
  /** The admin confirmed showing a folder another mount shows too (asked after a 409). */
  allow_overlap: boolean;
  storage_type: StorageType;
  storage_config_id: string;
  remark: string;
  cache_ttl: string;
  sort_order: string;
  is_active: boolean;
  web_proxy: boolean;
  /** Visitors without credentials may browse the mount (public browsing). */
  public_browse: boolean;
  webdav_policy: "302_redirect" | "native_proxy";
  enable_sign: boolean;
  sign_expires: string;
  /** Keep the mount's entries in the search index. */
  index_enabled: boolean;
  /** Minutes between scheduled crawls ("" or 0: on demand only). */
  index_interval: string;
  /** Globs, one a line. */
  index_include: string;
  index_exclude: string;
}

export const EMPTY_MOUNT_FORM: MountForm = {
  name: "",
  mount_path: "/",
  root: "",
  allow_overlap: false,
  storage_type: "LOCAL",
  storage_config_id: "",
  remark: "",
  cache_ttl: "300",
  sort_order: "0",
  is_active: true,
  web_proxy: false,
  public_browse: false,
  webdav_policy: "302_redirect",
  enable_sign: false,
  sign_expires: "",
  index_enabled: false,
  index_interval: "",
  index_include: "",
  index_exclude: "",
};

/** Messages of the shared schema, in the UI's languages. */
const MESSAGE_KEYS: Array<[RegExp, TranslationKey]> = [
  [/^Mount name is required$/, "mounts.errors.nameRequired"],
  [/^Mount name may be at most/, "mounts.errors.nameTooLong"],
  [/^Mount path is required$/, "mounts.errors.pathRequired"],
  [/^Mount path must start with \//, "mounts.errors.pathSlash"],
  [/^Mount path cannot be the root/, "mounts.errors.pathRoot"],
  [/^Mount path cannot contain consecutive/, "mounts.errors.pathDoubleSlash"],
  [/^Mount path may be at most/, "mounts.errors.pathTooLong"],
  [/^Mount path may contain only/, "mounts.errors.pathChars"],
  [/^Mount path \/\S+ is reserved/, "mounts.errors.pathReserved"],
  [/^Folder \S+ is reserved/, "mounts.errors.rootReserved"],
  [/^Folder must not contain \. or \.\./, "mounts.errors.rootDots"],
  [/^Folder must not contain backslashes/, "mounts.errors.rootChars"],
  [/^Folder may be at most/, "mounts.errors.rootTooLong"],
  [/^Storage type is required/, "mounts.errors.typeRequired"],
  [/^Storage config is required/, "mounts.errors.configRequired"],
  [/^Cache TTL must be/, "mounts.errors.cacheTtl"],
  [/^Sort order must be/, "mounts.errors.sortOrder"],
  [/^Remark may be at most/, "mounts.errors.remarkTooLong"],
  [/^sign_expires must be/, "mounts.errors.signExpires"],
  [/^index_interval must be/, "mounts.errors.indexInterval"],
];

export interface FieldError {
  key: TranslationKey | null;
  message: string;
  /** e.g. the reserved path for "Mount path /api is reserved" or "Folder .clipshare-shares is reserved". */
  values?: Record<string, string>;
}

export function issueText(message: string): FieldError {
  const found = MESSAGE_KEYS.find(([re]) => re.test(message));
  const reserved = /^(?:Mount path|Folder) (\S+) is reserved/.exec(message)?.[1];
  return { key: found?.[1] ?? null, message, values: reserved ? { path: reserved } : undefined };
}

/**
 * The folder a new mount on the default LOCAL storage suggests: one of its
 * own, named after the mount path, so the mount does not open the whole
 * storage ("/team/docs" → "team/docs").
 */
export function suggestedRoot(mountPath: string): string {
  return mountPath.split("/").filter(Boolean).join("/");
}

const intOrText = (v: string) => (/^-?\d+$/.test(v.trim()) ? Number(v.trim()) : v);

/** One pattern a line; blank lines dropped. */
export const globLines = (text: string) =>
  text
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean);

/** The request body, as the server will read it. */
export function toRequest(form: MountForm) {
  return {
    name: form.name,
    mount_path: form.mount_path,
    root: form.root,
    allow_overlap: form.allow_overlap,
    storage_type: form.storage_type,
    storage_config_id: form.storage_config_id,
    remark: form.remark.trim() === "" ? null : form.remark,
    cache_ttl: form.cache_ttl.trim() === "" ? 300 : intOrText(form.cache_ttl),
    sort_order: form.sort_order.trim() === "" ? 0 : intOrText(form.sort_order),
    is_active: form.is_active,
    web_proxy: form.web_proxy,
    public_browse: form.public_browse,
    webdav_policy: form.webdav_policy,
    enable_sign: form.enable_sign,
    sign_expires: form.sign_expires.trim() === "" ? null : intOrText(form.sign_expires),
    index_enabled: form.index_enabled,
    index_interval: form.index_interval.trim() === "" ? 0 : intOrText(form.index_interval),
    index_include: globLines(form.index_include),
    index_exclude: globLines(form.index_exclude),
  };
}

/** Field → first problem, checked with the same schema the server uses. */
export function validateMountForm(form: MountForm): Partial<Record<keyof MountForm, FieldError>> {
  const parsed = createMountRequest.safeParse(toRequest(form));
  if (parsed.success) return {};
  const errors: Partial<Record<keyof MountForm, FieldError>> = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0] as keyof MountForm | undefined;
    if (field && !errors[field]) {
      const message =
        field === "cache_ttl" && !/^Cache TTL/.test(issue.message)
          ? "Cache TTL must be an integer between 0 and 86400 seconds"
          : field === "sort_order" && !/^Sort order/.test(issue.message)
            ? "Sort order must be an integer"
            : issue.message;
      errors[field] = issueText(message);
    }
  }
  return errors;
}
