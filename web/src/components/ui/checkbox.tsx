import * as CheckboxPrimitive from "@radix-ui/react-checkbox";
import { Check } from "lucide-react";
import { type ReactNode, useId } from "react";
import { cn } from "../../lib/cn";

export interface CheckboxFieldProps {
  label: ReactNode;
  description?: ReactNode;
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  disabled?: boolean;
  className?: string;
}

/** A Radix checkbox with its label (role "checkbox", named by the label). */
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
      <CheckboxPrimitive.Root
        id={id}
        checked={checked}
        disabled={disabled}
        aria-describedby={descriptionId}
        onCheckedChange={(value) => onCheckedChange(value === true)}
        className={cn(
          "mt-0.5 flex h-4.5 w-4.5 shrink-0 items-center justify-center rounded border transition-colors",
          "border-slate-400 bg-white dark:border-slate-600 dark:bg-slate-900",
          "data-[state=checked]:border-indigo-600 data-[state=checked]:bg-indigo-600 dark:data-[state=checked]:border-indigo-500 dark:data-[state=checked]:bg-indigo-500",
          "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500 disabled:opacity-50",
        )}
      >
        <CheckboxPrimitive.Indicator>
          <Check className="h-3.5 w-3.5 text-white" strokeWidth={3} aria-hidden />
        </CheckboxPrimitive.Indicator>
      </CheckboxPrimitive.Root>
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
