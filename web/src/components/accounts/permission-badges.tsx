import { ALL_PERMISSIONS, Permission, type PermissionName, permissionNames } from "@clipshare/shared";
import { useTranslation } from "../../i18n";
import { Badge } from "../ui/badge";

/** A grant's permission bits as badges (keys, users, one's own account). */
export function PermissionBadges({ mask }: { mask: number }) {
  const { t } = useTranslation();
  if ((mask & ALL_PERMISSIONS) === ALL_PERMISSIONS)
    return <Badge tone="accent">{t("apiKeys.allPermissions")}</Badge>;
  const names = permissionNames(mask);
  if (names.length === 0) return <Badge>{t("apiKeys.noPermissions")}</Badge>;
  return (
    <span className="flex flex-wrap gap-1">
      {names.map((name: PermissionName) => (
        <Badge key={name} tone={Permission[name] >= Permission.WEBDAV_READ ? "warning" : "accent"}>
          {t(`permissions.${name}`)}
        </Badge>
      ))}
    </span>
  );
}
