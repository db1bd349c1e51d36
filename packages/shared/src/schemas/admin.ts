import { z } from "zod";
import { onFirstUse } from "./on-first-use";

export const loginRequest = onFirstUse(() =>
  z.object({
    username: z
      .string({ error: "Username and password cannot be empty" })
      .trim()
      .min(1, "Username and password cannot be empty")
      .max(64),
    password: z
      .string({ error: "Username and password cannot be empty" })
      .min(1, "Username and password cannot be empty")
      .max(1024),
  }),
);
export type LoginRequest = z.infer<typeof loginRequest>;

export const ADMIN_USERNAME_PATTERN = /^[A-Za-z0-9_.@-]{1,64}$/;
export const ADMIN_PASSWORD_MIN = 8;

export const changePasswordRequest = onFirstUse(() =>
  z.object({
    currentPassword: z
      .string({ error: "Current password is required" })
      .min(1, "Current password is required")
      .max(1024),
    newPassword: z
      .string()
      .max(1024)
      .optional()
      .transform((v) => (v === "" ? undefined : v))
      .refine(
        (v) => v === undefined || v.length >= ADMIN_PASSWORD_MIN,
        `New password must be at least ${ADMIN_PASSWORD_MIN} characters`,
      ),
    newUsername: z
      .string()
      .trim()
      .max(64)
      .optional()
      .transform((v) => (v === "" ? undefined : v))
      .refine(
        (v) => v === undefined || ADMIN_USERNAME_PATTERN.test(v),
        "Username may use letters, digits and _ . @ - (1-64 characters)",
      ),
  }),
);
export type ChangePasswordRequest = z.infer<typeof changePasswordRequest>;
