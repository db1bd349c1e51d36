import { Eye, EyeOff } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "../i18n";
import { Field, type FieldProps, Input } from "./ui/form";

/**
 * A password field with a show/hide toggle. The toggle is named by its title,
 * not aria-label, so that finding the field by its label ("Password") finds
 * the field alone.
 */
export function PasswordInput({
  id,
  describedBy,
  invalid,
  value,
  onChange,
  placeholder,
  autoComplete = "new-password",
  autoFocus,
  disabled,
}: {
  id: string;
  describedBy?: string;
  invalid?: boolean;
  value: string;
  onChange: (value: string) => void;
  placeholder?: string;
  autoComplete?: string;
  autoFocus?: boolean;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  const [visible, setVisible] = useState(false);
  return (
    <div className="relative">
      <Input
        id={id}
        type={visible ? "text" : "password"}
        aria-describedby={describedBy}
        invalid={invalid}
        value={value}
        autoComplete={autoComplete}
        placeholder={placeholder}
        autoFocus={autoFocus}
        disabled={disabled}
        spellCheck={false}
        autoCapitalize="off"
        className="pr-10"
        onChange={(e) => onChange(e.target.value)}
      />
      <button
        type="button"
        onClick={() => setVisible((v) => !v)}
        aria-pressed={visible}
        title={visible ? t("pastes.form.hidePassword") : t("pastes.form.showPassword")}
        disabled={disabled}
        className="absolute inset-y-0 right-0 flex w-10 items-center justify-center rounded-r-lg text-slate-500 hover:text-slate-800 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:hover:text-slate-200"
      >
        {visible ? <EyeOff className="h-4 w-4" aria-hidden /> : <Eye className="h-4 w-4" aria-hidden />}
      </button>
    </div>
  );
}

/** A labelled password field with its hint and error: `Field` + `PasswordInput` in one. */
export function PasswordField({
  label,
  hint,
  error,
  className,
  ...input
}: Pick<FieldProps, "label" | "hint" | "error" | "className"> &
  Omit<Parameters<typeof PasswordInput>[0], "id" | "describedBy" | "invalid">) {
  return (
    <Field label={label} hint={hint} error={error} className={className}>
      {({ id, describedBy, invalid }) => (
        <PasswordInput id={id} describedBy={describedBy} invalid={invalid} {...input} />
      )}
    </Field>
  );
}
