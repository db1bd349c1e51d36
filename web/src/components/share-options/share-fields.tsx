import { MAX_VIEWS_MAX, REMARK_MAX, SLUG_MAX_LENGTH, UPLOAD_EXPIRY_HOURS } from "@clipshare/shared";
import { useTranslation } from "../../i18n";
import { cn } from "../../lib/cn";
import { formatDateTime } from "../../lib/format";
import {
  type EditExpiryUnit,
  EXPIRY_AMOUNT_MAX,
  EXPIRY_UNITS,
  type ExpiryUnit,
  expiresAtFor,
  type FieldProblem,
} from "../../lib/share-options/form-model";
import { CheckboxField } from "../ui/checkbox";
import { Field, Input, type InputProps, Select } from "../ui/form";

export { PasswordInput } from "../password-input";

/** Text of a form problem, in the current language. */
type Translate = ReturnType<typeof useTranslation>["t"];

/** The one text for a view limit out of range, in every share form (Home, uploads, edit dialogs). */
export const maxViewsErrorText = (t: Translate) =>
  t("pastes.form.errors.maxViews.invalid", { max: MAX_VIEWS_MAX });

/** The share-option fields with a text per problem (the same texts in every share form). */
type ShareErrorField = "remark" | "slug" | "password" | "maxViews" | "expiryAmount";

export function useShareErrorText() {
  const { t } = useTranslation();
  return (field: ShareErrorField, problem: FieldProblem | undefined): string | null => {
    if (!problem) return null;
    if (field === "maxViews") return maxViewsErrorText(t);
    return t(`pastes.form.errors.${field}.${problem}` as "pastes.form.errors.slug.invalid", {
      max: field === "slug" ? SLUG_MAX_LENGTH : field === "remark" ? REMARK_MAX : EXPIRY_AMOUNT_MAX,
    });
  };
}

/** What every field of the kit takes besides its value; label and hint default to the paste form's. */
interface ShareFieldProps {
  value: string;
  onChange: (value: string) => void;
  error?: string | null;
  label?: string;
  hint?: string;
  disabled?: boolean;
}

export function RemarkField({ value, onChange, error, label, hint, disabled }: ShareFieldProps) {
  const { t } = useTranslation();
  // Visitors see a paste's remark as its page title, so the paste form calls it that.
  return (
    <Field label={label ?? t("pasteTitle.label")} hint={hint ?? t("pasteTitle.hint")} error={error}>
      {({ id, describedBy, invalid }) => (
        <Input
          id={id}
          aria-describedby={describedBy}
          invalid={invalid}
          value={value}
          disabled={disabled}
          maxLength={REMARK_MAX}
          placeholder={label ? undefined : t("pasteTitle.placeholder")}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
    </Field>
  );
}

/** A link suffix input shown after the fixed part of the link (`/paste/`, `/file/`), so users see the whole link. */
export function LinkSuffixInput({ prefix, className, ...props }: InputProps & { prefix: string }) {
  return (
    <div className="flex min-w-0">
      <span
        className="inline-flex items-center rounded-l-lg border border-r-0 border-slate-300 bg-slate-50 px-2.5 font-mono text-xs text-slate-500 dark:border-slate-700 dark:bg-slate-800 dark:text-slate-400"
        aria-hidden
      >
        {prefix}
      </span>
      <Input
        spellCheck={false}
        autoComplete="off"
        autoCapitalize="off"
        className={cn("min-w-0 rounded-l-none font-mono", className)}
        {...props}
      />
    </div>
  );
}

/** The link suffix after its fixed part: `/paste/` unless told otherwise (`/file/`). */
export function SlugField({
  value,
  onChange,
  error,
  label,
  hint,
  disabled,
  prefix = "/paste/",
}: ShareFieldProps & { prefix?: string }) {
  const { t } = useTranslation();
  return (
    <Field
      label={label ?? t("pastes.form.slug")}
      hint={hint ?? t("pastes.form.slugHint", { max: SLUG_MAX_LENGTH })}
      error={error}
    >
      {({ id, describedBy, invalid }) => (
        <LinkSuffixInput
          prefix={prefix}
          id={id}
          aria-describedby={describedBy}
          invalid={invalid}
          value={value}
          disabled={disabled}
          maxLength={SLUG_MAX_LENGTH + 10}
          placeholder={prefix === "/paste/" ? t("pastes.form.slugPlaceholder") : undefined}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
    </Field>
  );
}

/** The units that come with a number. */
type ExpiryAmountUnit = Exclude<ExpiryUnit, "never">;

/** Expiry: never, or a number of hours, days, weeks or months; editing can keep the current one. */
export function ExpiryField({
  unit,
  amount,
  onUnitChange,
  onAmountChange,
  error,
  allowKeep,
  currentText,
}: {
  unit: EditExpiryUnit;
  amount: string;
  onUnitChange: (unit: EditExpiryUnit) => void;
  onAmountChange: (amount: string) => void;
  error?: string | null;
  allowKeep?: boolean;
  /** For editing: the paste's current expiry in words. */
  currentText?: string;
}) {
  const { t, i18n } = useTranslation();
  const units: EditExpiryUnit[] = allowKeep ? ["keep", ...EXPIRY_UNITS] : [...EXPIRY_UNITS];
  const at = expiresAtFor(unit, amount);
  const hint =
    unit === "keep"
      ? currentText
      : unit === "never"
        ? t("pastes.form.neverExpires")
        : at
          ? t("pastes.form.expiresOn", { date: formatDateTime(at, i18n.language) })
          : undefined;
  const withAmount = unit !== "keep" && unit !== "never";
  return (
    <Field label={t("pastes.form.expiry")} hint={hint} error={error}>
      {({ id, describedBy, invalid }) => (
        // A grid, not width classes on the controls: the controls' own `w-full` would win.
        // The number keeps a fixed track and the unit takes the rest, on one row at any width.
        <div className="grid min-w-0 grid-cols-[6rem_minmax(0,1fr)] gap-2">
          {withAmount ? (
            <Input
              type="number"
              inputMode="numeric"
              min={1}
              max={EXPIRY_AMOUNT_MAX}
              step={1}
              aria-label={t(`pastes.form.expiryAmountOf.${unit as ExpiryAmountUnit}`)}
              aria-describedby={describedBy}
              invalid={invalid}
              value={amount}
              onChange={(e) => onAmountChange(e.target.value)}
            />
          ) : null}
          <Select
            id={id}
            aria-describedby={describedBy}
            value={unit}
            className={withAmount ? undefined : "col-span-2"}
            onChange={(e) => onUnitChange(e.target.value as EditExpiryUnit)}
          >
            {units.map((u) => (
              <option key={u} value={u}>
                {t(`pastes.form.expiryUnits.${u}`)}
              </option>
            ))}
          </Select>
        </div>
      )}
    </Field>
  );
}

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

/** Max views: blank or 0 is unlimited (the placeholder says so). */
export function MaxViewsField({ value, onChange, error, label, hint, disabled }: ShareFieldProps) {
  const { t } = useTranslation();
  return (
    <Field
      label={label ?? t("pastes.form.maxViews")}
      hint={hint ?? t("pastes.form.maxViewsHint")}
      error={error}
    >
      {({ id, describedBy, invalid }) => (
        <Input
          id={id}
          type="number"
          inputMode="numeric"
          min={0}
          max={MAX_VIEWS_MAX}
          step={1}
          aria-describedby={describedBy}
          invalid={invalid}
          value={value}
          disabled={disabled}
          placeholder={t("pastes.form.unlimited")}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
    </Field>
  );
}

/** Access logging of one share: on unless the share asks for none (`no_log`). */
export function AccessLogField({
  noLog,
  onChange,
  disabled,
}: {
  noLog: boolean;
  onChange: (noLog: boolean) => void;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <CheckboxField
      label={t("accessLog.shareSwitch")}
      description={t("accessLog.shareSwitchHint")}
      checked={!noLog}
      disabled={disabled}
      onCheckedChange={(on) => onChange(!on)}
    />
  );
}
