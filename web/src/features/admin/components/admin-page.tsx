import { ChevronLeft, ChevronRight, LogOut, ShieldCheck, UserRound } from "lucide-react";
import { type RefObject, useEffect, useRef, useState } from "react";
import { Link, Navigate, Outlet, useParams, useSearchParams } from "react-router";
import { Button } from "../../../components/ui/button";
import { useTranslation } from "../../../i18n";
import { authStore, useAuth, useCapabilities } from "../../../lib/auth-store";
import { cn } from "../../../lib/cn";
import { signInReturnPath } from "../../../lib/sign-in-return";
import { ADMIN_MODULE_TITLES, allowedModules, defaultModule } from "../modules/module-ids";
import { ADMIN_MODULE_VIEWS } from "../modules/registry";
import { SignInPanel } from "./sign-in-panel";

/** /admin and /admin/{module}: sign-in when signed out, else the panel frame. */
export function AdminPage() {
  const auth = useAuth();
  const caps = useCapabilities();
  const [search] = useSearchParams();
  if (!caps.isAuthenticated) return <SignInPanel />;
  const returnTo = signInReturnPath(search);
  if (returnTo) return <Navigate to={returnTo} replace />;
  if (!caps.hasPanelAccess) return <Navigate to="/" replace />;
  return <AdminFrame name={auth.userInfo?.name || ""} />;
}

/** Which ends of a sideways-scrolling strip have more behind them, kept current on scroll and resize. */
function useScrollCue(ref: RefObject<HTMLElement | null>) {
  const [more, setMore] = useState({ start: false, end: false });
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const update = () => {
      const start = el.scrollLeft > 1;
      const end = el.scrollLeft + el.clientWidth < el.scrollWidth - 1;
      setMore((m) => (m.start === start && m.end === end ? m : { start, end }));
    };
    update();
    el.addEventListener("scroll", update, { passive: true });
    const observer = new ResizeObserver(update);
    observer.observe(el);
    return () => {
      el.removeEventListener("scroll", update);
      observer.disconnect();
    };
  }, [ref]);
  return more;
}

/** A fade with an arrow at the end of the strip where more sections are hidden (phones). */
function ScrollCue({ side }: { side: "start" | "end" }) {
  const Icon = side === "start" ? ChevronLeft : ChevronRight;
  return (
    <span
      aria-hidden
      data-testid={`nav-more-${side}`}
      className={cn(
        "pointer-events-none absolute inset-y-0 flex w-10 items-center from-white via-white/90 to-transparent md:hidden dark:from-slate-900 dark:via-slate-900/90",
        side === "start" ? "left-0 justify-start bg-gradient-to-r" : "right-0 justify-end bg-gradient-to-l",
      )}
    >
      <Icon className="h-4 w-4 text-slate-500 dark:text-slate-400" />
    </span>
  );
}

function AdminFrame({ name }: { name: string }) {
  const { t } = useTranslation();
  const caps = useCapabilities();
  const { module } = useParams();
  const modules = allowedModules(caps);
  const active = module ?? defaultModule(caps);
  const navRef = useRef<HTMLElement>(null);
  const more = useScrollCue(navRef);

  // On narrow screens the sections scroll sideways: keep the current one in view.
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-run when the current section changes
  useEffect(() => {
    const nav = navRef.current;
    if (!nav || nav.scrollWidth <= nav.clientWidth) return;
    const current = nav.querySelector<HTMLElement>('[aria-current="page"]');
    if (current) nav.scrollLeft = current.offsetLeft - (nav.clientWidth - current.offsetWidth) / 2;
  }, [active]);

  const panelTitle = caps.isAdmin ? t("admin.adminPanel") : t("admin.userPanel");
  // The administrator is shown by role: the username is only known right after signing in,
  // and the panel must read the same after a reload.
  const displayName = caps.isAdmin ? t("admin.administrator") : name || t("admin.apiKeyUser");

  return (
    <div className="grid grid-cols-1 gap-6 md:grid-cols-[15rem_minmax(0,1fr)]">
      <aside className="min-w-0 md:sticky md:top-20 md:self-start">
        <div className="rounded-2xl border border-slate-200 bg-white p-3 shadow-xs dark:border-slate-800 dark:bg-slate-900">
          <div className="flex items-center gap-3 px-2 pt-1 pb-3">
            <div className="rounded-xl bg-indigo-50 p-2 dark:bg-indigo-950/60">
              {caps.isAdmin ? (
                <ShieldCheck className="h-5 w-5 text-indigo-600 dark:text-indigo-400" aria-hidden />
              ) : (
                <UserRound className="h-5 w-5 text-indigo-600 dark:text-indigo-400" aria-hidden />
              )}
            </div>
            <div className="min-w-0">
              <h1 className="text-base font-semibold leading-tight">{panelTitle}</h1>
              {/* Wraps instead of cutting the name off ("Signed in as Administr…") in the narrow side bar. */}
              <p className="text-xs break-words text-slate-500 dark:text-slate-400">
                {t("admin.signedInAs", { name: displayName })}
              </p>
            </div>
          </div>
          <div className="relative">
            <nav
              ref={navRef}
              aria-label={t("admin.moduleNavigation")}
              className="relative -mx-1 flex gap-1 overflow-x-auto px-1 pb-1 md:mx-0 md:flex-col md:overflow-visible md:px-0 md:pb-0"
            >
              {modules.map((id) => {
                const Icon = ADMIN_MODULE_VIEWS[id].icon;
                const isActive = id === active;
                return (
                  <Link
                    key={id}
                    to={`/admin/${id}`}
                    aria-current={isActive ? "page" : undefined}
                    className={cn(
                      "inline-flex shrink-0 items-center gap-2.5 rounded-lg px-3 py-2 text-sm font-medium whitespace-nowrap transition-colors",
                      "focus-visible:outline-2 focus-visible:outline-indigo-500",
                      isActive
                        ? "bg-indigo-50 text-indigo-700 dark:bg-indigo-950/60 dark:text-indigo-300"
                        : "text-slate-600 hover:bg-slate-100 hover:text-slate-900 dark:text-slate-300 dark:hover:bg-slate-800 dark:hover:text-white",
                    )}
                  >
                    <Icon className="h-4 w-4" aria-hidden />
                    {t(ADMIN_MODULE_TITLES[id])}
                  </Link>
                );
              })}
            </nav>
            {more.start ? <ScrollCue side="start" /> : null}
            {more.end ? <ScrollCue side="end" /> : null}
          </div>
          <div className="mt-2 border-t border-slate-200 pt-2 dark:border-slate-800">
            <Button
              variant="ghost"
              className="w-full justify-start text-slate-600 dark:text-slate-300"
              onClick={() => void authStore.logout("user")}
            >
              <LogOut className="h-4 w-4" aria-hidden />
              {t("auth.logout")}
            </Button>
          </div>
        </div>
      </aside>
      <div className="min-w-0">
        <Outlet />
      </div>
    </div>
  );
}
