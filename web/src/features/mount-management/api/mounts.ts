import type {
  CacheClearResult,
  CreateMountRequest,
  MountDto,
  StorageConfigDto,
  UpdateMountRequest,
} from "@clipshare/shared";
import { api } from "../../../lib/api";

/** A mount point as GET /api/admin/mounts returns it. */
export type MountRow = MountDto;

/** What the mount form needs of a storage config (GET /api/s3-configs). */
export type StorageConfigOption = Pick<StorageConfigDto, "id" | "name" | "storage_type" | "is_default">;

export const mountsApi = {
  async list(asAdmin: boolean, signal?: AbortSignal): Promise<MountRow[]> {
    return (await api.request<MountRow[]>(asAdmin ? "/admin/mounts" : "/user/mounts", { signal })).data;
  },
  async create(body: CreateMountRequest): Promise<MountRow> {
    return (await api.request<MountRow>("/admin/mounts", { method: "POST", body })).data;
  },
  async update(id: string, body: UpdateMountRequest): Promise<MountRow> {
    return (await api.request<MountRow>(`/admin/mounts/${encodeURIComponent(id)}`, { method: "PUT", body }))
      .data;
  },
  async remove(id: string): Promise<void> {
    await api.request(`/admin/mounts/${encodeURIComponent(id)}`, { method: "DELETE" });
  },
  async clearCache(asAdmin: boolean, mountId?: string): Promise<CacheClearResult> {
    return (
      await api.request<CacheClearResult>(asAdmin ? "/admin/cache/clear" : "/user/cache/clear", {
        method: "POST",
        body: mountId ? { mountId } : {},
        offline: "cache-clear",
      })
    ).data;
  },
  async storageConfigs(signal?: AbortSignal): Promise<StorageConfigOption[]> {
    return (await api.request<StorageConfigOption[]>("/s3-configs", { signal })).data;
  },
};
