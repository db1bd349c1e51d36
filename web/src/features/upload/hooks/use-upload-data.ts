import { RECENT_UPLOADS } from "@clipshare/shared";
import { useQuery } from "@tanstack/react-query";
import { uploadsApi } from "../api/uploads";

export const recentUploadsQueryKey = ["files", "recent"] as const;

/** Storage configs the signed-in principal may upload to (admin: all; key: public ones). */
export function useUploadStorageConfigs(enabled: boolean) {
  return useQuery({
    queryKey: ["storage-configs", "usable"],
    queryFn: ({ signal }) => uploadsApi.storageConfigs(signal),
    enabled,
  });
}

/** The max upload size setting; null while unknown (the server enforces it anyway). */
export function useMaxUploadSize() {
  return useQuery({
    queryKey: ["system", "max-upload-size"],
    queryFn: ({ signal }) => uploadsApi.maxUploadSize(signal),
    staleTime: 5 * 60_000,
  });
}

/** The 3 most recent uploads (spec §2). */
export function useRecentUploads(enabled: boolean) {
  return useQuery({
    queryKey: recentUploadsQueryKey,
    queryFn: async ({ signal }) => (await uploadsApi.recent(RECENT_UPLOADS, signal)).files ?? [],
    enabled,
  });
}
