import type { AccessLogPage, AccessSummary } from "@clipshare/shared";
import { api } from "./api";

/** Calls of the share access log API; the answers' types are the server's wire contract. */

export type { AccessKind, AccessLogEntry, AccessLoggingState } from "@clipshare/shared";
export type { AccessLogPage, AccessSummary };

/** Whose log: a paste, a file share, or a mount (its visitors' downloads, public browsing). */
export type ShareType = "paste" | "file" | "mount";

/** The share (or mount) a log belongs to, as the management lists name it. */
export interface LoggedShare {
  type: ShareType;
  id: string;
  /** The slug or file name shown in the dialog's title. */
  name: string;
  slug: string;
}

const base = (share: Pick<LoggedShare, "type" | "id">) => {
  const id = encodeURIComponent(share.id);
  if (share.type === "mount") return `/admin/mounts/${id}/access-log`;
  return `/${share.type === "paste" ? "pastes" : "files"}/${id}/access-log`;
};

export const accessLogApi = {
  page: (share: LoggedShare, page: { limit: number; offset: number }, signal?: AbortSignal) =>
    api.get<AccessLogPage>(base(share), { query: page, signal }),
  /** The whole log of a share as CSV text (the server streams it; a share's log is small next to a file). */
  csv: (share: LoggedShare) => api.get<string>(`${base(share)}/export`, { headers: { Accept: "text/csv" } }),
  clear: (share: LoggedShare) => api.delete<{ deleted: number }>(base(share)),
  /** The share's own "no log" switch (the edit route of its kind). */
  setLogging: (share: LoggedShare, on: boolean) =>
    api.put<unknown>(`/${share.type === "paste" ? "pastes" : "files"}/${encodeURIComponent(share.id)}`, {
      no_log: !on,
    }),
  summary: (signal?: AbortSignal) => api.get<AccessSummary>("/admin/dashboard/access-log", { signal }),
};
