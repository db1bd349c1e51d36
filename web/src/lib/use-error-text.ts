import { useCallback } from "react";
import { useTranslation } from "../i18n";
import { describeApiError } from "./api-error";

/** Turns any thrown error into the text of the spec's error catalogue, in the current language. */
export function useErrorText(): (error: unknown) => string {
  const { t } = useTranslation();
  return useCallback(
    (error: unknown) => {
      const d = describeApiError(error);
      if ("text" in d) return d.text;
      return t(`errors.${d.key}`, d.values ?? {});
    },
    [t],
  );
}
