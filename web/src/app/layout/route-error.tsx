import { CloudOff, TriangleAlert } from "lucide-react";
import { Link, useNavigate, useRouteError } from "react-router";
import { Button, buttonClasses } from "../../components/ui/button";
import { useTranslation } from "../../i18n";

function isChunkLoadError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return /dynamically imported module|Importing a module script failed|Failed to fetch|error loading dynamically/i.test(
    error.message,
  );
}

/**
 * Error boundary of every page. A page whose code could not be loaded (offline,
 * not cached yet) shows the "temporarily unavailable" notice.
 */
export function RouteError() {
  const error = useRouteError();
  const navigate = useNavigate();
  const { t } = useTranslation();
  const offline = isChunkLoadError(error) || (typeof navigator !== "undefined" && !navigator.onLine);
  const Icon = offline ? CloudOff : TriangleAlert;
  return (
    <div className="mx-auto flex max-w-md flex-col items-center py-16 text-center">
      <div className="mb-4 rounded-full bg-slate-100 p-4 dark:bg-slate-800">
        <Icon className="h-8 w-8 text-slate-500" aria-hidden />
      </div>
      <h1 className="text-xl font-semibold">{offline ? t("offline.title") : t("routeError.title")}</h1>
      <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
        {offline ? t("offline.description") : t("routeError.description")}
      </p>
      <div className="mt-6 flex flex-wrap justify-center gap-2">
        <Link to="/" reloadDocument className={buttonClasses("outline")}>
          {t("offline.home")}
        </Link>
        <Button variant="outline" onClick={() => navigate(-1)}>
          {t("offline.back")}
        </Button>
        <Button onClick={() => window.location.reload()}>{t("offline.retry")}</Button>
      </div>
    </div>
  );
}
