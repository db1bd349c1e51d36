import { APP_VERSION } from "@clipshare/shared";
import { Link } from "react-router";
import { useTranslation } from "../../i18n";
import { SOURCE_REPOSITORY_URL } from "../../lib/links";

export function Footer() {
  const { t } = useTranslation();
  const year = new Date().getFullYear();
  return (
    <footer className="border-t border-slate-200 py-6 text-sm text-slate-500 dark:border-slate-800 dark:text-slate-400">
      <div className="mx-auto flex max-w-7xl flex-wrap items-center justify-between gap-2 px-4 sm:px-6">
        <p>{t("footer.copyright", { year })}</p>
        <p className="flex items-center gap-3">
          <span>{t("footer.version", { version: APP_VERSION })}</span>
          <Link to="/api-docs" className="hover:text-slate-900 hover:underline dark:hover:text-white">
            {t("apiDocs.footerLink")}
          </Link>
          <a
            href={SOURCE_REPOSITORY_URL}
            target="_blank"
            rel="noreferrer noopener"
            className="hover:text-slate-900 hover:underline dark:hover:text-white"
          >
            {t("footer.source")}
          </a>
        </p>
      </div>
    </footer>
  );
}
