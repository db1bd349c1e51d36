import { ContentSkeleton } from "../../../components/content-skeleton";
import { useTranslation } from "../../../i18n";

const bar = "animate-pulse rounded bg-slate-200 dark:bg-slate-800";

/** Same boxes as the loaded page, so nothing jumps when the text arrives. */
export function PasteSkeleton() {
  const { t } = useTranslation();
  return (
    <div className="space-y-4" aria-busy="true">
      <span className="sr-only" role="status">
        {t("pasteView.loading")}
      </span>
      <div className="rounded-2xl border border-slate-200 bg-white px-5 py-4 dark:border-slate-800 dark:bg-slate-900">
        <div className={`h-7 w-1/2 ${bar}`} />
        <div className="mt-3 flex flex-wrap gap-2">
          <div className={`h-5 w-32 ${bar}`} />
          <div className={`h-5 w-28 ${bar}`} />
          <div className={`h-5 w-24 ${bar}`} />
        </div>
      </div>
      <div className="flex min-h-10 flex-wrap gap-2">
        <div className={`h-9 w-40 ${bar}`} />
        <div className={`h-9 w-24 ${bar}`} />
        <div className={`h-9 w-24 ${bar}`} />
      </div>
      <div className="min-h-[50vh] rounded-2xl border border-slate-200 bg-white p-5 sm:p-6 dark:border-slate-800 dark:bg-slate-900">
        <ContentSkeleton lines={10} />
      </div>
    </div>
  );
}
