import type { ApiKeyDto, KeyRole } from "@clipshare/shared";
import { api } from "../../../lib/api";

/**
 * A row of GET /api/admin/api-keys (the full key is never listed). A 0.7.3
 * server may send `is_guest` as a boolean and roles this app does not know.
 */
export type ApiKeyRow = Pick<
  ApiKeyDto,
  "id" | "name" | "key_masked" | "permissions" | "basic_path" | "last_used" | "expires_at"
> &
  Partial<Pick<ApiKeyDto, "created_at" | "permission_names" | "is_expired" | "owner" | "user_id">> & {
    role: string;
    is_guest: number | boolean;
  };

export interface CreateApiKeyBody {
  name: string;
  custom_key?: string;
  /** ISO time, "never", or absent for the server default. */
  expires_at?: string;
  permissions: number;
  role: KeyRole;
  basic_path: string;
  is_guest: 0 | 1;
}

export type UpdateApiKeyBody = Partial<Omit<CreateApiKeyBody, "custom_key">>;

/** data of POST /api/admin/api-keys: the full key, shown once. */
export interface CreatedApiKey extends Partial<ApiKeyRow> {
  key: string;
  name: string;
}

export const apiKeysApi = {
  list: (signal?: AbortSignal) => api.get<ApiKeyRow[]>("/admin/api-keys", { signal }),
  create: (body: CreateApiKeyBody) => api.post<CreatedApiKey>("/admin/api-keys", body),
  update: (id: ApiKeyRow["id"], body: UpdateApiKeyBody) =>
    api.put<unknown>(`/admin/api-keys/${encodeURIComponent(String(id))}`, body),
  remove: (id: ApiKeyRow["id"]) => api.delete<unknown>(`/admin/api-keys/${encodeURIComponent(String(id))}`),
};
