import { curlUploadCommand, sharexConfigs } from "@clipshare/shared";
import { Copy, Download } from "lucide-react";
import { useId } from "react";
import { Button } from "../../../components/ui/button";
import { Label } from "../../../components/ui/form";
import { toast } from "../../../components/ui/toast";
import { useTranslation } from "../../../i18n";
import { copyText } from "../../../lib/clipboard";
import { downloadText } from "../../../lib/download-text";

/**
 * Uploads from screenshot tools with this key: ShareX uploaders (.sxcu) and
 * the Flameshot curl one-liner. Shown with the full key, which exists in the
 * browser only right after creation.
 */
export function ToolConfigs({ apiKey }: { apiKey: string }) {
  const { t } = useTranslation();
  const curlId = useId();
  const origin = window.location.origin;
  const configs = sharexConfigs(origin, apiKey);
  const curl = curlUploadCommand(origin, apiKey);
  const host = new URL(origin).host.replace(/[^A-Za-z0-9.-]/g, "_");
  const save = (kind: "file" | "text") =>
    downloadText(
      JSON.stringify(configs[kind], null, 2),
      `clipshare-${kind}-${host}.sxcu`,
      "application/json",
    );

  return (
    <section className="space-y-2" aria-label={t("toolConfigs.title")}>
      <h3 className="text-sm font-medium">{t("toolConfigs.title")}</h3>
      <div className="flex flex-wrap gap-2">
        <Button variant="outline" onClick={() => save("file")}>
          <Download className="h-4 w-4" aria-hidden />
          {t("toolConfigs.sharexFiles")}
        </Button>
        <Button variant="outline" onClick={() => save("text")}>
          <Download className="h-4 w-4" aria-hidden />
          {t("toolConfigs.sharexText")}
        </Button>
      </div>
      <Label htmlFor={curlId}>{t("toolConfigs.curl")}</Label>
      <div className="flex gap-2">
        <textarea
          id={curlId}
          readOnly
          rows={3}
          value={curl}
          className="w-full rounded-md border bg-transparent p-2 font-mono text-xs"
          onFocus={(e) => e.currentTarget.select()}
        />
        <Button
          variant="outline"
          aria-label={t("toolConfigs.copyCurl")}
          onClick={async () => {
            const ok = await copyText(curl);
            toast(ok ? t("common.copied") : t("common.copyFailed"), ok ? "success" : "error");
          }}
        >
          <Copy className="h-4 w-4" aria-hidden />
        </Button>
      </div>
    </section>
  );
}
