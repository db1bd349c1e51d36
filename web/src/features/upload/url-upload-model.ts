/**
 * The two phases of a URL upload as one progress figure: downloading the
 * remote file fills 0-49 %, uploading it 50-99 %, and 100 % is reached only
 * once the share exists. Pure, so it is unit-tested.
 */

export type UrlUploadPhase = "download" | "upload" | "done";

export function urlUploadPercent(phase: UrlUploadPhase, loaded: number, total: number | null): number {
  if (phase === "done") return 100;
  const share = total && total > 0 ? Math.min(1, Math.max(0, loaded / total)) : 0;
  return phase === "download" ? Math.floor(share * 49) : 50 + Math.floor(share * 49);
}
