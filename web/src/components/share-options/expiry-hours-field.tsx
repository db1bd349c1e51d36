import { UPLOAD_EXPIRY_HOURS } from "@clipshare/shared";
import { useTranslation } from "../../i18n";
import { Field, Select } from "../ui/form";

// Its texts are admin texts: only signed-in screens (collections) use this field.
const UPLOAD_EXPIRY_KEYS: Record<(typeof UPLOAD_EXPIRY_HOURS)[number], "1h" | "1d" | "7d" | "30d" | "never"> =
  {
    1: "1h",
    24: "1d",
    168: "7d",
    720: "30d",
    0: "never",
  };

/** Expiry as the upload options give it (an hour to a month, or never), in hours; editing can keep the current one. */
export function ExpiryHoursField({
  value,
  onChange,
  keepLabel,
}: {
  /** Hours as text ("0" is never), or "keep". */
  value: string;
  onChange: (value: string) => void;
  /** Offers "keep" first, with this text. */
  keepLabel?: string;
}) {
  const { t } = useTranslation();
  return (
    <Field label={t("explorer.shareExpiry")}>
      {({ id }) => (
        <Select id={id} value={value} onChange={(e) => onChange(e.target.value)}>
          {keepLabel ? <option value="keep">{keepLabel}</option> : null}
          {UPLOAD_EXPIRY_HOURS.map((hours) => (
            <option key={hours} value={String(hours)}>
              {t(`fileShare.expiry.${UPLOAD_EXPIRY_KEYS[hours] ?? "never"}`)}
            </option>
          ))}
        </Select>
      )}
    </Field>
  );
}
