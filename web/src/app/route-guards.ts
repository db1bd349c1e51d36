import { isPathWithinBase, normalizeBasePath } from "@clipshare/shared";
import { type LoaderFunctionArgs, redirect } from "react-router";
import { authStore, capabilitiesOf } from "../lib/auth-store";

/**
 * Route guard for the signed-in areas: revalidate when the last check
 * is older than 5 minutes; signed out → let the page offer sign-in; signed in
 * without admin rights or a text/file/mount permission → home.
 */
export async function panelGuard(): Promise<null> {
  await authStore.ensureValidated();
  const caps = capabilitiesOf(authStore.getState());
  if (caps.isAuthenticated && !caps.hasPanelAccess) throw redirect("/");
  return null;
}

export function explorerUrl(path: string): string {
  const normalized = normalizeBasePath(path);
  if (normalized === "/") return "/mount-explorer";
  return `/mount-explorer${normalized
    .split("/")
    .map((segment) => encodeURIComponent(segment))
    .join("/")}`;
}

/** Plus: an API-key user may only browse at or below the key's base path. */
export async function explorerGuard({ params, request }: LoaderFunctionArgs): Promise<null> {
  await panelGuard();
  const caps = capabilitiesOf(authStore.getState());
  if (caps.isApiKey && caps.mount) {
    const path = `/${params["*"] ?? ""}`;
    if (!isPathWithinBase(caps.basicPath, path)) {
      const search = new URL(request.url).search;
      throw redirect(`${explorerUrl(caps.basicPath)}${search}`);
    }
  }
  return null;
}
