import type { FsTask, MountIndexStatus, MountIndexUsage } from "@clipshare/shared";
import { api } from "../../../lib/api";

const mountUrl = (mountId: string, action: string) =>
  `/admin/indexes/${encodeURIComponent(mountId)}/${action}`;

/** The search index of each mount (GET /api/admin/indexes) and its crawls. */
export const indexesApi = {
  async list(signal?: AbortSignal): Promise<MountIndexStatus[]> {
    return (await api.request<MountIndexStatus[]>("/admin/indexes", { signal })).data;
  },
  async crawl(mountId: string, rebuild: boolean): Promise<FsTask> {
    return (await api.request<FsTask>(mountUrl(mountId, "crawl"), { method: "POST", body: { rebuild } }))
      .data;
  },
  async stop(mountId: string): Promise<void> {
    await api.request(mountUrl(mountId, "stop"), { method: "POST", body: {} });
  },
  async usage(mountId: string, signal?: AbortSignal): Promise<MountIndexUsage> {
    return (await api.request<MountIndexUsage>(mountUrl(mountId, "usage"), { signal })).data;
  },
  /** Turns indexing on for a mount (the mount's own setting). */
  async enable(mountId: string): Promise<void> {
    await api.request(`/admin/mounts/${encodeURIComponent(mountId)}`, {
      method: "PUT",
      body: { index_enabled: true },
    });
  },
};
