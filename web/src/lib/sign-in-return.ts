/**
 * "Sign in" links from other pages carry where to go back to (`?next=`), so a
 * visitor who signs in to share a draft lands on that draft again, not on the
 * panel. Only paths of this app are followed, never another origin.
 */
export const SIGN_IN_RETURN_PARAM = "next";

export function signInHref(returnTo: string): string {
  return `/admin?${SIGN_IN_RETURN_PARAM}=${encodeURIComponent(returnTo)}`;
}

/** The local path to return to after signing in, or null when absent or not a path of this app. */
export function signInReturnPath(search: URLSearchParams): string | null {
  const next = search.get(SIGN_IN_RETURN_PARAM);
  if (!next?.startsWith("/") || next.startsWith("//") || next.includes("\\")) return null;
  return next;
}
