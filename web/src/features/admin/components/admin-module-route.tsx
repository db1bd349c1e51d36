import { Suspense } from "react";
import { Navigate, useParams } from "react-router";
import { PageSpinner } from "../../../components/ui/spinner";
import { useCapabilities } from "../../../lib/auth-store";
import { canUseModule, defaultModule, isAdminModuleId } from "../modules/module-ids";
import { ADMIN_MODULE_VIEWS } from "../modules/registry";

/** Renders /admin (the default module) and /admin/{module}, lazily. */
export function AdminModuleRoute() {
  const { module } = useParams();
  const caps = useCapabilities();
  const id = module === undefined ? defaultModule(caps) : isAdminModuleId(module) ? module : null;
  if (!id || !canUseModule(id, caps)) return <Navigate to={module === undefined ? "/" : "/admin"} replace />;
  const { Component } = ADMIN_MODULE_VIEWS[id];
  return (
    <Suspense fallback={<PageSpinner />}>
      <Component key={id} />
    </Suspense>
  );
}
