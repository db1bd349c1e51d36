import { Suspense } from "react";
import { Navigate, useParams } from "react-router";
import { SignInRequired } from "../../../components/sign-in-required";
import { PageSpinner } from "../../../components/ui/spinner";
import { useTranslation } from "../../../i18n";
import { useTwoFactorStatus } from "../../../lib/accounts/two-factor-status";
import { useCapabilities } from "../../../lib/auth-store";
import {
  ADMIN_MODULE_TITLES,
  type AdminModuleId,
  canUseModule,
  defaultModule,
  isAdminModuleId,
  modulePermission,
} from "../modules/module-ids";
import { ADMIN_MODULE_VIEWS } from "../modules/registry";

/**
 * Renders /admin (the default module) and /admin/{module}, lazily. A module the
 * signed-in key may not open says which permission it lacks, rather than
 * sending the key elsewhere without a word; an unknown module goes to the panel's start.
 */
export function AdminModuleRoute() {
  const { module } = useParams();
  const caps = useCapabilities();
  // An administrator who must still set up a required second factor can reach only My account.
  const twoFactor = useTwoFactorStatus(caps.isAdmin);
  const id = module === undefined ? defaultModule(caps) : isAdminModuleId(module) ? module : null;
  if (caps.isAdmin && twoFactor.isPending) return <PageSpinner />;
  if (twoFactor.data?.enrolment_required && id !== "profile") return <Navigate to="/admin/profile" replace />;
  if (!id) return <Navigate to={module === undefined ? "/" : "/admin"} replace />;
  if (!canUseModule(id, caps)) return <ModuleLocked id={id} />;
  const { Component } = ADMIN_MODULE_VIEWS[id];
  return (
    <Suspense fallback={<PageSpinner />}>
      <Component key={id} />
    </Suspense>
  );
}

function ModuleLocked({ id }: { id: AdminModuleId }) {
  const { t } = useTranslation();
  const permission = modulePermission(id);
  const title = t(ADMIN_MODULE_TITLES[id]);
  return (
    <div className="space-y-4">
      <h2 className="text-xl font-semibold tracking-tight">{title}</h2>
      <SignInRequired
        title={t("adminAccess.title", { module: title })}
        description={
          permission
            ? t("adminAccess.needsPermission", { permission: t(`permissions.${permission}`) })
            : t("adminAccess.adminOnly")
        }
      />
    </div>
  );
}
