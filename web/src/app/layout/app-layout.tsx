import { lazy, Suspense } from "react";
import { Outlet, ScrollRestoration, useNavigation, useSearchParams } from "react-router";
import { Toaster } from "../../components/ui/toast";
import { InstallOffer } from "../../features/offline/components/install-offer";
import { OfflineQueueIndicator } from "../../features/offline/components/offline-queue-indicator";
import { useTranslation } from "../../i18n";
import { useCapabilities } from "../../lib/auth-store";
import { Footer } from "./footer";
import { TopBar } from "./top-bar";
import { UpdatePrompt } from "./update-prompt";
import { useDocumentTitle } from "./use-document-title";

const EnvSwitcher = lazy(() =>
  import("../../features/env-switcher/components/env-switcher").then((m) => ({ default: m.EnvSwitcher })),
);

function NavigationProgress() {
  const navigation = useNavigation();
  if (navigation.state === "idle") return null;
  return (
    <div
      className="fixed inset-x-0 top-0 z-50 h-0.5 overflow-hidden bg-indigo-100 dark:bg-indigo-950"
      aria-hidden
    >
      <div className="h-full w-1/3 animate-[progress_1s_ease-in-out_infinite] bg-indigo-500" />
    </div>
  );
}

export function AppLayout() {
  const { t } = useTranslation();
  const caps = useCapabilities();
  const [search] = useSearchParams();
  useDocumentTitle();
  // The environment switcher exists only for an admin who asks for it.
  const showEnvSwitcher = caps.isAdmin && search.has("showEnvSwitcher");

  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main"
        className="sr-only z-50 rounded-md bg-indigo-600 px-3 py-2 text-white focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
      >
        {t("app.skipToContent")}
      </a>
      {/* Back and forward return to where the entry was left; a new page starts at its top or its #fragment. */}
      <ScrollRestoration />
      <NavigationProgress />
      <TopBar />
      <main id="main" className="mx-auto w-full max-w-7xl flex-1 px-4 py-6 sm:px-6 sm:py-8">
        <Outlet />
      </main>
      <Footer />
      {showEnvSwitcher ? (
        <Suspense fallback={null}>
          <EnvSwitcher />
        </Suspense>
      ) : null}
      <UpdatePrompt />
      <InstallOffer />
      <OfflineQueueIndicator />
      <Toaster />
    </div>
  );
}
