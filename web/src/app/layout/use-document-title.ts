import { APP_NAME } from "@clipshare/shared";
import { useEffect } from "react";
import { useMatches } from "react-router";
import { useTranslation } from "../../i18n";
import { useCapabilities } from "../../lib/auth-store";
import { usePageOwnTitle } from "../../lib/page-title";
import type { RouteHandle } from "../route-handle";

/** Sets "<page> - ClipShare" from the page's own title, else the deepest matched route that names one. */
export function useDocumentTitle(): void {
  const matches = useMatches();
  const { t, i18n } = useTranslation();
  const caps = useCapabilities();
  const ownTitle = usePageOwnTitle();
  const keyHolder = caps.isAuthenticated && !caps.isAdmin;
  let title: string | null = ownTitle;
  for (let i = matches.length - 1; i >= 0 && title === null; i--) {
    const match = matches[i]!;
    const h = match.handle as RouteHandle | undefined;
    if (!h?.title) continue;
    const key = typeof h.title === "function" ? h.title(match.params, { keyHolder }) : h.title;
    title = t(key);
  }
  const full = title ? `${title} - ${APP_NAME}` : APP_NAME;
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-run when the language changes
  useEffect(() => {
    document.title = full;
  }, [full, i18n.language]);
}
