import { RECENT_UPLOADS } from "@clipshare/shared";
import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { uploadsApi } from "../api/uploads";
import { emptyUploadForm, type UploadFormValues } from "../upload-form-model";

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

/** The 3 most recent uploads. */
export function useRecentUploads(enabled: boolean) {
  return useQuery({
    queryKey: recentUploadsQueryKey,
    queryFn: async ({ signal }) => (await uploadsApi.recent(RECENT_UPLOADS, signal)).files ?? [],
    enabled,
  });
}

/** The share options of an upload form, with the default storage (or the first usable one) preselected. */
export function useShareOptions() {
  const configs = useUploadStorageConfigs(true);
  const [values, setValues] = useState<UploadFormValues>(() => emptyUploadForm());
  useEffect(() => {
    const list = configs.data ?? [];
    if (list.length === 0) return;
    setValues((v) =>
      list.some((c) => c.id === v.storageConfigId)
        ? v
        : { ...v, storageConfigId: (list.find((c) => c.is_default) ?? list[0])!.id },
    );
  }, [configs.data]);
  return { configs, values, setValues };
}
