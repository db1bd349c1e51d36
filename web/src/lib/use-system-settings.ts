import type { SystemSettingRow } from "@clipshare/shared";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "./api";

/** One setting's stored value (system settings travel as strings). */
export type SettingRows = Array<Pick<SystemSettingRow, "key" | "value">>;

/**
 * A settings card's share of the system settings: read from the admin's list
 * (`parse`), saved as a partial update (`body`); a save makes every card read
 * again.
 */
export function useSystemSettings<T>(
  name: string,
  parse: (rows: SettingRows) => T,
  body: (value: T) => Record<string, unknown>,
) {
  const qc = useQueryClient();
  const query = useQuery({
    queryKey: ["settings", name],
    queryFn: async ({ signal }) =>
      parse(await api.get<SystemSettingRow[]>("/admin/system-settings", { signal })),
  });
  const save = useMutation({
    mutationFn: (value: T) => api.put<unknown>("/admin/system-settings", body(value)),
    onSuccess: () => qc.invalidateQueries({ queryKey: ["settings"] }),
  });
  return { query, save };
}
