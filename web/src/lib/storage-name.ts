import { DEFAULT_LOCAL_STORAGE_NAME } from "@clipshare/shared";
import { useCallback } from "react";
import { useTranslation } from "../i18n";

/**
 * The name of a storage config as shown to the reader: the config made on first run still
 * carries the server's English name, so it is shown in the chosen language; names an admin
 * typed are shown as typed.
 */
export function useStorageName(): (name: string) => string {
  const { t } = useTranslation();
  return useCallback(
    (name: string) => (name === DEFAULT_LOCAL_STORAGE_NAME ? t("storageNames.defaultLocal") : name),
    [t],
  );
}
