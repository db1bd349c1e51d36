/**
 * The URL an office preview frames (spec §8, "Office"): the chosen provider's
 * viewer, else the generic one. A provider other than Microsoft or Google is
 * "unsupported preview provider"; an answer whose URL is not https (never a
 * javascript: or data: URL in a frame) is "invalid input".
 */
import type { OfficeViewerUrls } from "@clipshare/shared";

export type OfficeProvider = "microsoft" | "google";

export type OfficeViewer =
  | { src: string }
  | { error: "fileView.office.unsupportedProvider" | "fileView.office.invalidInput" };

export function officeViewer(urls: OfficeViewerUrls, provider: string): OfficeViewer {
  if (provider !== "microsoft" && provider !== "google") {
    return { error: "fileView.office.unsupportedProvider" };
  }
  const chosen = (provider === "google" ? urls.google : urls.microsoft) || urls.url;
  if (typeof chosen !== "string" || !/^https:\/\//i.test(chosen))
    return { error: "fileView.office.invalidInput" };
  return { src: chosen };
}
