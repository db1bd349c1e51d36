import * as CheckboxPrimitive from "@radix-ui/react-checkbox";
import { Check, Minus } from "lucide-react";
import { type ReactNode, useId } from "react";
import { cn } from "../../lib/cn";

export interface CheckboxProps {
  checked: boolean | "indeterminate";
  onCheckedChange: (checked: boolean) => void;
  disabled?: boolean;
  id?: string;
  /** For a box without a visible label (a row's selection). */
  "aria-label"?: string;
  "aria-describedby"?: string;
  className?: string;
}

/**
 * The app's one checkbox: a Radix checkbox (role "checkbox") drawn the same
 * everywhere, in both themes, with a visible keyboard focus ring and a
 * "indeterminate" dash for a partly selected page.
 */
export function Checkbox({ checked, onCheckedChange, className, ...rest }: CheckboxProps) {
  return (
    <CheckboxPrimitive.Root
      {...rest}
      checked={checked}
      onCheckedChange={(value) => onCheckedChange(value === true)}
      data-checkbox
      className={cn(
        "flex h-4.5 w-4.5 shrink-0 items-center justify-center rounded border transition-colors",
        "border-slate-400 bg-white dark:border-slate-500 dark:bg-slate-900",
        "data-[state=checked]:border-indigo-600 data-[state=checked]:bg-indigo-600 data-[state=indeterminate]:border-indigo-600 data-[state=indeterminate]:bg-indigo-600",
        "dark:data-[state=checked]:border-indigo-500 dark:data-[state=checked]:bg-indigo-500 dark:data-[state=indeterminate]:border-indigo-500 dark:data-[state=indeterminate]:bg-indigo-500",
        "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500 disabled:cursor-not-allowed disabled:opacity-50",
        className,
      )}
    >
      <CheckboxPrimitive.Indicator>
        {checked === "indeterminate" ? (
          <Minus className="h-3.5 w-3.5 text-white" strokeWidth={3} aria-hidden />
        ) : (
          <Check className="h-3.5 w-3.5 text-white" strokeWidth={3} aria-hidden />
        )}
      </CheckboxPrimitive.Indicator>
    </CheckboxPrimitive.Root>
  );
}

export interface CheckboxFieldProps {
  label: ReactNode;
  description?: ReactNode;
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  disabled?: boolean;
  className?: string;
}

/** A checkbox with its label (named by the label) and an optional description under it. */
export function CheckboxField({
  label,
  description,
  checked,
  onCheckedChange,
  disabled,
  className,
}: CheckboxFieldProps) {
  const id = useId();
  const descriptionId = description ? `${id}-desc` : undefined;
  return (
    <div className={cn("flex items-start gap-2.5", className)}>
      <Checkbox
        id={id}
        checked={checked}
        disabled={disabled}
        aria-describedby={descriptionId}
        onCheckedChange={onCheckedChange}
        className="mt-0.5"
      />
      <div className="min-w-0">
        <label htmlFor={id} className="cursor-pointer text-sm text-slate-800 select-none dark:text-slate-200">
          {label}
        </label>
        {description ? (
          <p id={descriptionId} className="text-xs text-slate-500 dark:text-slate-400">
            {description}
          </p>
        ) : null}
      </div>
    </div>
  );
}
