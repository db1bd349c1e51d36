import { Copy } from "lucide-react";
import { useTranslation } from "../i18n";
import { copyText } from "../lib/clipboard";
import { Button } from "./ui/button";
import { toast } from "./ui/toast";

/** An icon button that copies a share link and says whether it worked. */
export function CopyLinkButton({
  link,
  label,
}: {
  link: string /** Names what is copied, for screen readers. */;
  label: string;
}) {
  const { t } = useTranslation();
  return (
    <Button
      variant="ghost"
      size="icon"
      aria-label={label}
      title={t("fileShare.copyLink")}
      onClick={async () => {
        const ok = await copyText(link);
        toast(ok ? t("fileShare.linkCopied") : t("common.copyFailed"), ok ? "success" : "error");
      }}
    >
      <Copy className="h-4 w-4" aria-hidden />
    </Button>
  );
}
