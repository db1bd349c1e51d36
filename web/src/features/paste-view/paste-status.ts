import { isApiError } from "../../lib/api-error";

/** Why a paste cannot be shown, from the server's answer (404, 410 expired, 410 view limit). */
export type UnavailableReason = "notFound" | "expired" | "viewLimit";

export function unavailableReason(error: unknown): UnavailableReason | null {
  if (!isApiError(error) || error.kind !== "http") return null;
  if (error.status === 404) return "notFound";
  if (error.status === 410) return error.errorId === "paste_view_limit" ? "viewLimit" : "expired";
  return null;
}
