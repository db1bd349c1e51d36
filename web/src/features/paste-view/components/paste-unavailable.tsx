import { Ban, CalendarX2, Home, SearchX } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { buttonClasses } from "../../../components/ui/button";
import type { UnavailableReason } from "../paste-status";

const ICONS = { notFound: SearchX, expired: CalendarX2, viewLimit: Ban } as const;

/** The three pages a paste link can end on instead of its text. */
export function PasteUnavailable({ reason }: { reason: UnavailableReason }) {
  const { t } = useTranslation();
  const Icon = ICONS[reason];
  return (
    <section
      aria-labelledby="paste-unavailable-title"
      data-reason={reason}
      className="mx-auto flex max-w-lg flex-col items-center rounded-2xl border border-slate-200 bg-white px-6 py-14 text-center shadow-xs dark:border-slate-800 dark:bg-slate-900"
    >
      <div className="mb-4 rounded-full bg-slate-100 p-4 dark:bg-slate-800">
        <Icon className="h-8 w-8 text-slate-500 dark:text-slate-400" aria-hidden />
      </div>
      <h1 id="paste-unavailable-title" className="text-xl font-semibold">
        {t(`pasteView.unavailable.${reason}.title`)}
      </h1>
      <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
        {t(`pasteView.unavailable.${reason}.description`)}
      </p>
      <Link to="/" className={buttonClasses("primary", "md", "mt-6")}>
        <Home className="h-4 w-4" aria-hidden />
        {t("pasteView.unavailable.home")}
      </Link>
    </section>
  );
}
