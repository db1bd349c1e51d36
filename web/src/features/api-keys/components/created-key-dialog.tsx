import { Check, Copy } from "lucide-react";
import { useId, useState } from "react";
import { Alert } from "../../../components/ui/alert";
import { Button } from "../../../components/ui/button";
import { Dialog } from "../../../components/ui/dialog";
import { Input, Label } from "../../../components/ui/form";
import { toast } from "../../../components/ui/toast";
import { useTranslation } from "../../../i18n";
import { copyText } from "../../../lib/clipboard";
import { ToolConfigs } from "./tool-configs";

/** The full key, shown exactly once after creation. */
export function CreatedKeyDialog({
  created,
  onClose,
}: {
  created: { name: string; key: string } | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const inputId = useId();
  const [copied, setCopied] = useState(false);

  async function copy() {
    if (!created) return;
    const ok = await copyText(created.key);
    setCopied(ok);
    toast(ok ? t("common.copied") : t("common.copyFailed"), ok ? "success" : "error");
  }

  return (
    <Dialog
      open={created !== null}
      onOpenChange={(open) => {
        if (!open) {
          setCopied(false);
          onClose();
        }
      }}
      title={t("apiKeys.createdTitle")}
      description={t("apiKeys.createdDescription", { name: created?.name ?? "" })}
      footer={<Button onClick={onClose}>{t("common.done")}</Button>}
    >
      <div className="space-y-3">
        <Label htmlFor={inputId}>{t("apiKeys.newKey")}</Label>
        <div className="flex gap-2">
          <Input
            id={inputId}
            readOnly
            value={created?.key ?? ""}
            className="font-mono"
            onFocus={(e) => e.currentTarget.select()}
          />
          <Button variant="outline" onClick={() => void copy()} aria-label={t("apiKeys.copyKey")}>
            {copied ? <Check className="h-4 w-4" aria-hidden /> : <Copy className="h-4 w-4" aria-hidden />}
            <span className="hidden sm:inline">{copied ? t("common.copied") : t("common.copy")}</span>
          </Button>
        </div>
        <Alert tone="info">{t("apiKeys.shownOnce")}</Alert>
        {created ? <ToolConfigs apiKey={created.key} /> : null}
      </div>
    </Dialog>
  );
}
