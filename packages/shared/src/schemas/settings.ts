import { z } from "zod";
import { looseBoolean, looseInt } from "./common";
import { onFirstUse } from "./on-first-use";

export const UPLOAD_SIZE_UNITS = ["KB", "MB", "GB"] as const;
export type UploadSizeUnit = (typeof UPLOAD_SIZE_UNITS)[number];
export const UNIT_BYTES: Record<UploadSizeUnit, number> = { KB: 1024, MB: 1024 ** 2, GB: 1024 ** 3 };
export const WEBDAV_UPLOAD_MODES = ["direct", "multipart"] as const;

export const updateSystemSettingsRequest = onFirstUse(() =>
  z.object({
    max_upload_size: looseInt.refine((v) => v > 0, "Max upload size must be a positive integer").optional(),
    max_upload_size_unit: z
      .enum(UPLOAD_SIZE_UNITS, { error: "Max upload size unit must be KB, MB or GB" })
      .optional(),
    webdav_upload_mode: z
      .enum(WEBDAV_UPLOAD_MODES, { error: "Invalid WebDAV upload mode, valid values: multipart, direct" })
      .optional(),
    proxy_sign_all: looseBoolean.optional(),
    proxy_sign_expires: looseInt.refine((v) => v >= 0, "expires must be non-negative").optional(),
    access_log_privacy_mode: looseBoolean.optional(),
    access_log_ip: looseBoolean.optional(),
    access_log_retention_days: looseInt
      .refine((v) => v >= 0 && v <= 36500, "Retention must be between 0 and 36500 days")
      .optional(),
    public_webdav: looseBoolean.optional(),
    require_admin_second_factor: looseBoolean.optional(),
    public_download_limit: looseInt
      .refine((v) => v >= 0 && v <= 1_000_000, "The download limit must be between 0 and 1000000")
      .optional(),
  }),
);
export type UpdateSystemSettingsRequest = z.input<typeof updateSystemSettingsRequest>;

export const proxySignSettingsRequest = onFirstUse(() =>
  z.object({
    signAll: z.boolean({ error: "signAll must be a boolean" }),
    expires: z
      .number({ error: "expires must be a number" })
      .int("expires must be an integer")
      .min(0, "expires must be non-negative"),
  }),
);
