import { UPLOAD_EXPIRY_HOURS, uploadFolderInput } from "@clipshare/shared";
import { type FieldProblem, shareOptionFieldProblems } from "../../lib/share-options/form-model";

/**
 * The share options of the upload form (and its URL tab): values, validation
 * by the share-option rules every form uses, and the fields a request carries. Optional fields are
 * sent only if set. Pure, so it is unit-tested.
 */

export type ExpiryHours = (typeof UPLOAD_EXPIRY_HOURS)[number];
export const EXPIRY_CHOICES: readonly ExpiryHours[] = UPLOAD_EXPIRY_HOURS;

export interface UploadFormValues {
  storageConfigId: string;
  slug: string;
  path: string;
  remark: string;
  password: string;
  /** Hours until the share expires; 0 = never. */
  expiryHours: ExpiryHours;
  maxViews: string;
  /** The share's visits are counted but not written to its access log. */
  noLog: boolean;
}

export type UploadFormField = "slug" | "path" | "remark" | "password" | "maxViews";
export type UploadFormErrors = Partial<Record<UploadFormField, FieldProblem>>;

export function emptyUploadForm(storageConfigId = ""): UploadFormValues {
  return {
    storageConfigId,
    slug: "",
    path: "",
    remark: "",
    password: "",
    expiryHours: 0,
    maxViews: "",
    noLog: false,
  };
}

/** The share fields of a request: strings, only those that are set. */
export type UploadFields = Partial<
  Record<
    "s3_config_id" | "slug" | "path" | "remark" | "password" | "expires_in" | "max_views" | "no_log",
    string
  >
>;

/** Fields for a request; `allowSlug` is false when several files go at once (a slug names one share). */
export function uploadFields(values: UploadFormValues, allowSlug: boolean): UploadFields {
  const fields: UploadFields = {};
  const set = (key: keyof UploadFields, value: string) => {
    const v = value.trim();
    if (v) fields[key] = v;
  };
  set("s3_config_id", values.storageConfigId);
  if (allowSlug) set("slug", values.slug);
  set("path", values.path.replace(/^\/+|\/+$/g, ""));
  set("remark", values.remark);
  // Passwords are taken as typed (spaces count).
  if (values.password) fields.password = values.password;
  if (values.expiryHours > 0) fields.expires_in = String(values.expiryHours);
  const views = values.maxViews.trim();
  if (views && views !== "0") fields.max_views = views;
  if (values.noLog) fields.no_log = "true";
  return fields;
}

/** JSON body of POST /s3/presign: the fields with numbers as numbers. */
export function presignBody(fields: UploadFields, file: { name: string; size: number; type: string }) {
  const { expires_in, max_views, ...rest } = fields;
  return {
    ...rest,
    filename: file.name,
    size: file.size,
    mimetype: file.type,
    ...(expires_in ? { expires_in: Number(expires_in) } : {}),
    ...(max_views ? { max_views: Number(max_views) } : {}),
  };
}

/** Checks the form field by field; the link suffix only where one file goes (it names one share). */
export function validateUploadForm(values: UploadFormValues, allowSlug: boolean): UploadFormErrors {
  const errors: UploadFormErrors = shareOptionFieldProblems({
    remark: values.remark,
    slug: allowSlug ? values.slug : "",
    password: values.password,
    maxViews: values.maxViews,
  });
  const path = values.path.trim();
  if (path && !uploadFolderInput.safeParse(path).success) errors.path = "invalid";
  return errors;
}

/** A pasted screenshot arrives as "image.png": give it a name that tells uploads apart. */
export function clipboardFileName(name: string, type: string, now = new Date()): string {
  const generic = !name || /^image\.(png|jpe?g|gif|webp)$/i.test(name);
  if (!generic) return name;
  const ext = (/^image\/(\w+)/.exec(type)?.[1] ?? name.split(".").pop() ?? "png").replace("jpeg", "jpg");
  const p = (n: number) => String(n).padStart(2, "0");
  const stamp = `${now.getFullYear()}${p(now.getMonth() + 1)}${p(now.getDate())}-${p(now.getHours())}${p(now.getMinutes())}${p(now.getSeconds())}`;
  return `clipboard-${stamp}.${ext}`;
}
