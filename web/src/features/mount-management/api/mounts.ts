import type { CreateMountRequest, UpdateMountRequest } from "@clipshare/shared";
import { api } from "../../../lib/api";

/** A mount point as GET /api/admin/mounts returns it (spec §3 Mount point). */
export interface MountRow {
  id: string;
  name: string;
  storage_type: "LOCAL" | "S3";
  storage_config_id: string;
  storage_config_name?: string | null;
  mount_path: string;
  remark: string | null;
  is_active: boolean;
  sort_order: number;
  cache_ttl: number;
  web_proxy: boolean;
  webdav_policy: "302_redirect" | "native_proxy";
  enable_sign: boolean;
  sign_expires: number | null;
  created_at?: string;
  updated_at?: string;
}

export interface StorageConfigOption {
  id: string;
  name: string;
  storage_type: "LOCAL" | "S3";
}

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
  async clearCache(asAdmin: boolean, mountId?: string): Promise<{ clearedCount: number }> {
    return (
      await api.request<{ clearedCount: number }>(asAdmin ? "/admin/cache/clear" : "/user/cache/clear", {
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
