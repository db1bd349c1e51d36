import { FileText, Hash } from "lucide-react";
import { useTranslation } from "../../i18n";
import type { TextFormat } from "../../lib/markdown/detect";
import { Segmented } from "../segmented";

/** Markdown or plain text: the one switch the editor and the paste page both show. */
export function FormatSwitch({
  value,
  onChange,
}: {
  value: TextFormat;
  onChange: (format: TextFormat) => void;
}) {
  const { t } = useTranslation();
  return (
    <Segmented<TextFormat>
      label={t("pastes.format.label")}
      value={value}
      onChange={onChange}
      options={[
        {
          value: "markdown",
          label: t("pastes.format.markdown"),
          icon: <Hash className="h-3.5 w-3.5" aria-hidden />,
        },
        {
          value: "plain",
          label: t("pastes.format.plain"),
          icon: <FileText className="h-3.5 w-3.5" aria-hidden />,
        },
      ]}
    />
  );
}
