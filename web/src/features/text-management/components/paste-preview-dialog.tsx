import { ExternalLink } from "lucide-react";
import { useState } from "react";
import { ContentSkeleton } from "../../../components/content-skeleton";
import { Segmented } from "../../../components/segmented";
import { PasteContent } from "../../../components/text-view/paste-content";
import { Alert } from "../../../components/ui/alert";
import { buttonClasses } from "../../../components/ui/button";
import { Dialog } from "../../../components/ui/dialog";
import { useTranslation } from "../../../i18n";
import { formatOf, type TextFormat } from "../../../lib/markdown/detect";
import type { PasteRow } from "../../../lib/pastes/api";
import { pasteLink } from "../../../lib/share-links";
import { useErrorText } from "../../../lib/use-error-text";
import { usePasteDetail } from "../hooks/use-pastes";

/** The full text of a paste, as the owner sees it (no view is counted). */
export function PastePreviewDialog({ row, onClose }: { row: PasteRow | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Dialog
      open={row !== null}
      onOpenChange={(open) => !open && onClose()}
      size="lg"
      title={row ? t("textManagement.previewTitle", { slug: row.slug }) : ""}
      description={row?.remark ?? undefined}
      footer={
        row ? (
          <a href={pasteLink(row.slug)} target="_blank" rel="noopener" className={buttonClasses("outline")}>
            <ExternalLink className="h-4 w-4" aria-hidden />
            {t("textManagement.openPage")}
          </a>
        ) : null
      }
    >
      {row ? <PreviewBody id={row.id} /> : null}
    </Dialog>
  );
}

function PreviewBody({ id }: { id: string }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const detail = usePasteDetail(id);
  const [format, setFormat] = useState<TextFormat | null>(null);
  if (detail.isPending) return <ContentSkeleton />;
  if (detail.isError) return <Alert>{errorText(detail.error)}</Alert>;
  // Ciphertext shown as text would only look like a broken paste.
  if (detail.data.encrypted)
    return (
      <Alert tone="info">
        <span data-testid="e2e-preview-hidden">{t("e2e.previewHidden")}</span>
      </Alert>
    );
  const shown = format ?? formatOf(detail.data.content);
  return (
    <div className="space-y-3">
      <Segmented<TextFormat>
        label={t("pastes.format.label")}
        value={shown}
        onChange={setFormat}
        options={[
          { value: "markdown", label: t("pastes.format.markdown") },
          { value: "plain", label: t("pastes.format.plain") },
        ]}
      />
      <div className="rounded-xl border border-slate-200 p-4 dark:border-slate-800">
        <PasteContent content={detail.data.content} format={shown} />
      </div>
    </div>
  );
}
