import { ALL_PERMISSIONS, Permission } from "@clipshare/shared";
import { useTranslation } from "../../i18n";
import { PERMISSION_GROUPS } from "../../lib/accounts/permission-groups";
import { CheckboxField } from "../ui/checkbox";

/**
 * The permission bits of a grant as grouped tick boxes (a key's, a user's, an invitation's).
 * Bits outside `offered` (what a role may hold) show unticked and cannot be ticked.
 */
export function PermissionPicker({
  legend,
  value,
  onChange,
  offered = ALL_PERMISSIONS,
}: {
  legend: string;
  value: number;
  onChange: (mask: number) => void;
  offered?: number;
}) {
  const { t } = useTranslation();
  return (
    <fieldset className="space-y-3">
      <legend className="text-sm font-medium text-slate-700 dark:text-slate-200">{legend}</legend>
      <div className="grid gap-3 sm:grid-cols-3">
        {PERMISSION_GROUPS.map((group) => (
          <fieldset key={group.id} className="rounded-xl border border-slate-200 p-3 dark:border-slate-800">
            <legend className="px-1 text-xs font-semibold text-slate-500 dark:text-slate-400">
              {t(`apiKeys.groups.${group.id}`)}
            </legend>
            <div className="space-y-2">
              {group.permissions.map((name) => {
                const bit = Permission[name];
                return (
                  <CheckboxField
                    key={name}
                    label={t(`permissions.${name}`)}
                    disabled={(offered & bit) === 0}
                    checked={(value & offered & bit) === bit}
                    onCheckedChange={(on) => onChange(on ? value | bit : value & ~bit)}
                  />
                );
              })}
            </div>
          </fieldset>
        ))}
      </div>
    </fieldset>
  );
}
