import { useTranslation } from "../../i18n";
import { useUsers } from "../../lib/accounts/use-users";
import { useCapabilities } from "../../lib/auth-store";
import { Select } from "../ui/form";

interface OwnerFilterProps {
  value: string;
  onChange: (ownerId: string) => void;
}

/** The administrator's owner filter of the share lists: every owner, or one user's; nothing for anyone else. */
export function OwnerFilter(props: OwnerFilterProps) {
  return useCapabilities().isAdmin ? <OwnerSelect {...props} /> : null;
}

function OwnerSelect({ value, onChange }: OwnerFilterProps) {
  const { t } = useTranslation();
  const users = useUsers();
  return (
    <Select
      aria-label={t("users.ownerFilter")}
      value={value}
      className="w-full sm:w-48"
      onChange={(e) => onChange(e.target.value)}
    >
      <option value="">{t("users.allOwners")}</option>
      {(users.data?.users ?? []).map((user) => (
        <option key={user.id} value={user.id}>
          {user.display_name ? `${user.display_name} (${user.username})` : user.username}
        </option>
      ))}
    </Select>
  );
}
