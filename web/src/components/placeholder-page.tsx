import { Construction, type LucideIcon } from "lucide-react";
import type { ReactNode } from "react";
import { useTranslation } from "../i18n";

/** Stand-in for a screen whose feature has not landed yet. */
export function PlaceholderPage({
  title,
  description,
  icon: Icon = Construction,
  headingLevel = 1,
  children,
}: {
  title: string;
  description?: string;
  icon?: LucideIcon;
  headingLevel?: 1 | 2;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const Heading = headingLevel === 1 ? "h1" : "h2";
  return (
    <section className="flex flex-col items-center rounded-2xl border border-dashed border-slate-300 bg-white/60 px-6 py-16 text-center dark:border-slate-700 dark:bg-slate-900/40">
      <div className="mb-4 rounded-2xl bg-indigo-50 p-4 dark:bg-indigo-950/50">
        <Icon className="h-8 w-8 text-indigo-600 dark:text-indigo-400" aria-hidden />
      </div>
      <Heading className="text-2xl font-semibold tracking-tight">{title}</Heading>
      <p className="mt-2 max-w-md text-sm text-slate-600 dark:text-slate-400">
        {description ?? t("placeholder.description")}
      </p>
      <p className="mt-4 inline-flex items-center rounded-full bg-amber-50 px-3 py-1 text-xs font-medium text-amber-800 dark:bg-amber-950/50 dark:text-amber-300">
        {t("placeholder.comingSoon")}
      </p>
      {children}
    </section>
  );
}
