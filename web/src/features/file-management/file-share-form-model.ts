import { filenameInput, parseMaxViews } from "@clipshare/shared";
import { type FieldProblem, shareOptionFieldProblems } from "../../lib/share-options/form-model";
import type { FileShare, UpdateFileBody } from "./api/file-shares";

/**
 * Editing a file share's settings (remark, link suffix, password, expiry, max
 * views, access mode, name): values, validation by the share-option rules
 * every form uses (the name by the server's schema), and a body with only
 * what changed. Pure, so it is unit-tested.
 */

export const SHARE_EXPIRY_CHOICES = ["keep", "1h", "1d", "7d", "30d", "never", "custom"] as const;
export type ShareExpiryChoice = (typeof SHARE_EXPIRY_CHOICES)[number];

export type PasswordMode = "keep" | "set" | "clear";

export interface FileShareFormValues {
  filename: string;
  slug: string;
  remark: string;
  passwordMode: PasswordMode;
  password: string;
  expiry: ShareExpiryChoice;
  /** `datetime-local` value (local time, "2026-05-01T12:00"). */
  customExpiry: string;
  maxViews: string;
  useProxy: boolean;
}

export type FileShareField = "filename" | "slug" | "remark" | "password" | "customExpiry" | "maxViews";
export type FileShareErrors = Partial<Record<FileShareField, FieldProblem | "past">>;

export function formFromFile(file: FileShare): FileShareFormValues {
  return {
    filename: file.filename,
    slug: file.slug,
    remark: file.remark ?? "",
    passwordMode: "keep",
    password: "",
    expiry: "keep",
    customExpiry: "",
    maxViews: file.max_views ? String(file.max_views) : "",
    useProxy: file.use_proxy,
  };
}

const HOUR_MS = 3600_000;
const EXPIRY_MS: Record<"1h" | "1d" | "7d" | "30d", number> = {
  "1h": HOUR_MS,
  "1d": 24 * HOUR_MS,
  "7d": 7 * 24 * HOUR_MS,
  "30d": 30 * 24 * HOUR_MS,
};

/** The new `expires_at`: an ISO time, null for never, undefined to keep the current one. */
export function expiresAtFor(values: FileShareFormValues, now = Date.now()): string | null | undefined {
  switch (values.expiry) {
    case "keep":
      return undefined;
    case "never":
      return null;
    case "custom": {
      const time = Date.parse(values.customExpiry);
      return Number.isNaN(time) ? undefined : new Date(time).toISOString();
    }
    default:
      return new Date(now + EXPIRY_MS[values.expiry]).toISOString();
  }
}

export function validateFileShareForm(values: FileShareFormValues, now = Date.now()): FileShareErrors {
  const errors: FileShareErrors = shareOptionFieldProblems({
    remark: values.remark,
    slug: values.slug,
    password: values.passwordMode === "set" ? values.password : "",
    maxViews: values.maxViews,
  });
  if (!values.filename.trim()) errors.filename = "required";
  else if (!filenameInput.safeParse(values.filename).success) errors.filename = "invalid";
  if (!values.slug.trim()) errors.slug = "required";
  if (values.passwordMode === "set" && !values.password) errors.password = "required";
  if (values.expiry === "custom") {
    const time = Date.parse(values.customExpiry);
    if (!values.customExpiry) errors.customExpiry = "required";
    else if (Number.isNaN(time)) errors.customExpiry = "invalid";
    else if (time <= now) errors.customExpiry = "past";
  }
  return errors;
}

/** PUT /api/files/:id body with the fields that differ from `initial`. */
export function fileShareUpdateBody(
  values: FileShareFormValues,
  initial: FileShareFormValues,
  now = Date.now(),
): UpdateFileBody {
  const body: UpdateFileBody = {};
  if (values.filename.trim() !== initial.filename) body.filename = values.filename.trim();
  if (values.slug.trim() !== initial.slug) body.slug = values.slug.trim();
  if (values.remark.trim() !== initial.remark.trim()) body.remark = values.remark.trim() || null;
  if (values.passwordMode === "set") body.password = values.password;
  if (values.passwordMode === "clear") body.password = "";
  const expires = expiresAtFor(values, now);
  if (expires !== undefined) body.expires_at = expires;
  const views = parseMaxViews(values.maxViews) ?? 0;
  if (views !== (parseMaxViews(initial.maxViews) ?? 0)) body.max_views = views;
  if (values.useProxy !== initial.useProxy) body.use_proxy = values.useProxy;
  return body;
}
