import { ADMIN_PASSWORD_MIN, ADMIN_USERNAME_PATTERN } from "@clipshare/shared";

/** Validation of one's own sign-in change (user name, password). Pure, so unit-tested without a DOM. */

export interface AccountFormValues {
  currentPassword: string;
  newUsername: string;
  newPassword: string;
  confirmPassword: string;
}

export type AccountErrors = Partial<
  Record<
    keyof AccountFormValues | "form",
    "required" | "nothingToChange" | "samePassword" | "mismatch" | "passwordTooShort" | "usernameInvalid"
  >
>;

/** Current password required; a new username or password; the new password differs and is confirmed. */
export function validateAccountForm(v: AccountFormValues): AccountErrors {
  const errors: AccountErrors = {};
  if (!v.currentPassword) errors.currentPassword = "required";
  if (!v.newUsername.trim() && !v.newPassword) errors.form = "nothingToChange";
  if (v.newUsername.trim() && !ADMIN_USERNAME_PATTERN.test(v.newUsername.trim())) {
    errors.newUsername = "usernameInvalid";
  }
  if (v.newPassword) {
    if (v.newPassword.length < ADMIN_PASSWORD_MIN) errors.newPassword = "passwordTooShort";
    else if (v.newPassword === v.currentPassword) errors.newPassword = "samePassword";
    if (v.newPassword !== v.confirmPassword) errors.confirmPassword = "mismatch";
  }
  return errors;
}
