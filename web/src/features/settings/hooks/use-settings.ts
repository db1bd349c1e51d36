import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type ProxySignSettings, type SystemSettings, settingsApi } from "../api/settings";

const systemKey = ["admin", "system-settings"] as const;
const proxyKey = ["admin", "proxy-sign-settings"] as const;

export function useSystemSettings() {
  return useQuery({ queryKey: systemKey, queryFn: ({ signal }) => settingsApi.system(signal) });
}

export function useSaveSystemSettings() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (s: SystemSettings) => settingsApi.saveSystem(s),
    onSuccess: () => qc.invalidateQueries({ queryKey: systemKey }),
  });
}

export function useProxySignSettings() {
  return useQuery({ queryKey: proxyKey, queryFn: ({ signal }) => settingsApi.proxySign(signal) });
}

export function useSaveProxySignSettings() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (s: ProxySignSettings) => settingsApi.saveProxySign(s),
    onSuccess: () => qc.invalidateQueries({ queryKey: proxyKey }),
  });
}
