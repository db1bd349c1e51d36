import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "../../i18n";
import { formatBytes } from "../../lib/file-size";
import { TEXT_PREVIEW_MAX_BYTES, textPreviewRange } from "../../lib/preview-kind";
import { fetchText } from "../../lib/public-files";
import { Alert } from "../ui/alert";

/** The beginning of a text file (capped, see preview-kind.ts), fetched once. */
export function useTextContent(previewUrl: string, size: number) {
  const range = textPreviewRange(size);
  const query = useQuery({
    queryKey: ["file-text", previewUrl],
    queryFn: ({ signal }) => fetchText(previewUrl, range.rangeHeader, signal),
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
  return { ...query, truncated: range.truncated };
}

export function TruncatedNote({ truncated }: { truncated: boolean }) {
  const { t } = useTranslation();
  if (!truncated) return null;
  return (
    <Alert tone="info" className="mb-3">
      {t("fileView.preview.truncated", { size: formatBytes(TEXT_PREVIEW_MAX_BYTES) })}
    </Alert>
  );
}
