import { Checkbox } from "../ui/checkbox";

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
    <Checkbox aria-label={label} checked={checked} onCheckedChange={onCheckedChange} className={className} />
  );
}
