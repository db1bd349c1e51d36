import { saveLink } from "./save-link";

/** Saves a text as a file through a temporary object URL. */
export function downloadText(text: string, fileName: string, mime: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: `${mime};charset=utf-8` }));
  saveLink(url, fileName);
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Opens a text in a new tab as plain text (for content we already hold, e.g. the owner's view). */
export function openTextInNewTab(text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: "text/plain;charset=utf-8" }));
  window.open(url, "_blank", "noopener");
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
