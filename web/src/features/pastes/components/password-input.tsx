import { Eye, EyeOff } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Input } from "../../../components/ui/form";

/** A password (or API key) field with a show/hide toggle: every secret field of the app uses it. */
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
        // Named by its title only: an aria-label would also match the field's own label ("Password").
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
