import { isPathWithinBase, normalizeBasePath } from "@clipshare/shared";
import type { Params } from "react-router";
import { capabilitiesOf } from "../lib/auth-state";
import { authStore } from "../lib/auth-store";

/** What a guard sees: the params and the full URL being opened. */
export interface GuardArgs {
  params: Params;
  url: URL;
}

/** Runs before a route is shown: a path to go to instead, or nothing to let it open. */
export type Guard = (args: GuardArgs) => Promise<string | null> | string | null;

/**
 * Route guard for the signed-in areas: revalidate when the last check
 * is older than 5 minutes; signed out → let the page offer sign-in; signed in
 * without admin rights or a text/file/mount permission → home.
 */
export async function panelGuard(): Promise<string | null> {
  await authStore.ensureValidated();
  const caps = capabilitiesOf(authStore.getState());
  return caps.isAuthenticated && !caps.hasPanelAccess ? "/" : null;
}

export function explorerUrl(path: string): string {
  const normalized = normalizeBasePath(path);
  if (normalized === "/") return "/mount-explorer";
  return `/mount-explorer${normalized
    .split("/")
    .map((segment) => encodeURIComponent(segment))
    .join("/")}`;
}

/** Plus: a user or API key may only browse at or below their grant's base path. */
export async function explorerGuard({ params, url }: GuardArgs): Promise<string | null> {
  const elsewhere = await panelGuard();
  if (elsewhere) return elsewhere;
  const caps = capabilitiesOf(authStore.getState());
  if (caps.isScoped && caps.mount) {
    const path = `/${params["*"] ?? ""}`;
    if (!isPathWithinBase(caps.basicPath, path)) return `${explorerUrl(caps.basicPath)}${url.search}`;
  }
  return null;
}
