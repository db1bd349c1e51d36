import * as CheckboxPrimitive from "@radix-ui/react-checkbox";
import { Check, Minus } from "lucide-react";
import { cn } from "../../lib/cn";

/** A row-selection checkbox named only for screen readers; "indeterminate" for a partly selected page. */
export function SelectCheckbox({
  label,
  checked,
  onCheckedChange,
  className,
}: {
  label: string;
  checked: boolean | "indeterminate";
  onCheckedChange: (checked: boolean) => void;
  className?: string;
}) {
  return (
    <CheckboxPrimitive.Root
      aria-label={label}
      checked={checked}
      onCheckedChange={(value) => onCheckedChange(value === true)}
      className={cn(
        "flex h-4.5 w-4.5 shrink-0 items-center justify-center rounded border transition-colors",
        "border-slate-400 bg-white dark:border-slate-600 dark:bg-slate-900",
        "data-[state=checked]:border-indigo-600 data-[state=checked]:bg-indigo-600 data-[state=indeterminate]:border-indigo-600 data-[state=indeterminate]:bg-indigo-600",
        "dark:data-[state=checked]:border-indigo-500 dark:data-[state=checked]:bg-indigo-500",
        "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500",
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
