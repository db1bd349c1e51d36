import { useTranslation } from "../../i18n";
import { useUsers } from "../../lib/accounts/use-users";
import { Select } from "../ui/form";

/** The administrator's owner filter of the share lists: every owner, or one user's. */
export function OwnerFilter({ value, onChange }: { value: string; onChange: (ownerId: string) => void }) {
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
