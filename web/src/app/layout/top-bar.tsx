import { Code2, Menu, X } from "lucide-react";
import { useEffect, useId, useState } from "react";
import { Link, NavLink, useLocation } from "react-router";
import { Button } from "../../components/ui/button";
import { useTranslation } from "../../i18n";
import { useCapabilities } from "../../lib/auth-store";
import { cn } from "../../lib/cn";
import { SOURCE_REPOSITORY_URL } from "../../lib/links";
import { navItemsFor } from "./nav-items";
import { LanguageButton, ThemeButton } from "./preference-buttons";

function Logo() {
  return (
    <svg viewBox="0 0 64 64" className="h-7 w-7" aria-hidden>
      <rect width="64" height="64" rx="14" className="fill-indigo-600 dark:fill-indigo-500" />
      <rect x="17" y="14" width="30" height="40" rx="4" fill="none" stroke="#fff" strokeWidth="4" />
      <rect x="24" y="9" width="16" height="9" rx="2.5" fill="#fff" />
      <path d="M24 28h16M24 36h16M24 44h10" stroke="#c7d2fe" strokeWidth="3.5" strokeLinecap="round" />
    </svg>
  );
}

const linkBase =
  "inline-flex items-center gap-2 rounded-lg px-3 py-2 text-sm font-medium transition-colors focus-visible:outline-2 focus-visible:outline-indigo-500";

function navLinkClass({ isActive }: { isActive: boolean }) {
  return cn(
    linkBase,
    isActive
      ? "bg-indigo-50 text-indigo-700 dark:bg-indigo-950/60 dark:text-indigo-300"
      : "text-slate-600 hover:bg-slate-100 hover:text-slate-900 dark:text-slate-300 dark:hover:bg-slate-800 dark:hover:text-white",
  );
}

function SourceLink({ withLabel = false }: { withLabel?: boolean }) {
  const { t } = useTranslation();
  return (
    <a
      href={SOURCE_REPOSITORY_URL}
      target="_blank"
      rel="noreferrer noopener"
      aria-label={t("nav.sourceCode")}
      title={t("nav.sourceCode")}
      className={cn(
        linkBase,
        "text-slate-600 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800",
        withLabel ? "w-full" : "h-9 w-9 justify-center px-0",
      )}
    >
      <Code2 className="h-4.5 w-4.5" aria-hidden />
      {withLabel ? <span aria-hidden>{t("nav.sourceCode")}</span> : null}
    </a>
  );
}

/** The main navigation: a row in the bar from md up, a column in the menu below it. */
function MainNav({ className }: { className: string }) {
  const { t } = useTranslation();
  const navItems = navItemsFor(useCapabilities());
  return (
    <nav aria-label={t("nav.main")} className={className}>
      {navItems.map((item) => (
        <NavLink key={item.to} to={item.to} end={item.end} className={navLinkClass}>
          <item.icon className="h-4 w-4" aria-hidden />
          {t(item.label)}
        </NavLink>
      ))}
    </nav>
  );
}

export function TopBar() {
  const { t } = useTranslation();
  const [menuOpen, setMenuOpen] = useState(false);
  const menuId = useId();
  const location = useLocation();

  // Close the mobile menu after navigating or when Escape is pressed.
  // biome-ignore lint/correctness/useExhaustiveDependencies: react to the route change
  useEffect(() => setMenuOpen(false), [location.pathname]);
  useEffect(() => {
    if (!menuOpen) return;
    const onKey = (e: KeyboardEvent) => e.key === "Escape" && setMenuOpen(false);
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [menuOpen]);

  return (
    <header className="sticky top-0 z-30 border-b border-slate-200/80 bg-white/85 backdrop-blur supports-[backdrop-filter]:bg-white/70 dark:border-slate-800/80 dark:bg-slate-950/80">
      <div className="mx-auto flex h-14 max-w-7xl items-center gap-3 px-4 sm:px-6">
        <Link
          to="/"
          className="flex items-center gap-2 rounded-lg font-semibold tracking-tight focus-visible:outline-2 focus-visible:outline-indigo-500"
        >
          <Logo />
          <span className="text-base text-slate-900 dark:text-white">ClipShare</span>
        </Link>

        <MainNav className="ml-4 hidden items-center gap-1 md:flex" />

        <div className="ml-auto hidden items-center gap-1 md:flex">
          <LanguageButton />
          <ThemeButton />
          <SourceLink />
        </div>

        <Button
          variant="ghost"
          size="icon"
          className="ml-auto md:hidden"
          aria-label={menuOpen ? t("nav.closeMenu") : t("nav.openMenu")}
          aria-expanded={menuOpen}
          aria-controls={menuId}
          onClick={() => setMenuOpen((open) => !open)}
        >
          {menuOpen ? <X className="h-5 w-5" aria-hidden /> : <Menu className="h-5 w-5" aria-hidden />}
        </Button>
      </div>

      {menuOpen ? (
        <div
          id={menuId}
          className="border-t border-slate-200 bg-white px-4 pt-2 pb-4 shadow-lg md:hidden dark:border-slate-800 dark:bg-slate-950"
        >
          <MainNav className="flex flex-col gap-1" />
          <div className="mt-2 flex flex-col gap-1 border-t border-slate-200 pt-2 dark:border-slate-800">
            <LanguageButton withLabel />
            <ThemeButton withLabel />
            <SourceLink withLabel />
          </div>
        </div>
      ) : null}
    </header>
  );
}
