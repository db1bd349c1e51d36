import { LogIn, ShieldAlert } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { buttonClasses } from "../../../components/ui/button";
import type { Capabilities } from "../../../lib/auth-store";

/** Creating a paste needs the administrator or an API key with text permission (spec §6). */
export function SignInPrompt({ caps }: { caps: Capabilities }) {
  const { t } = useTranslation();
  const keyWithoutText = caps.isApiKey && !caps.text;
  return (
    <section
      aria-labelledby="sign-in-prompt-title"
      className="flex flex-col gap-3 rounded-2xl border border-amber-200 bg-amber-50 p-4 text-amber-900 sm:flex-row sm:items-center dark:border-amber-900/60 dark:bg-amber-950/30 dark:text-amber-100"
    >
      <ShieldAlert className="h-6 w-6 shrink-0 text-amber-600 dark:text-amber-400" aria-hidden />
      <div className="min-w-0 flex-1">
        <h2 id="sign-in-prompt-title" className="text-sm font-semibold">
          {keyWithoutText ? t("home.signIn.keyTitle") : t("home.signIn.title")}
        </h2>
        <p className="mt-0.5 text-sm text-amber-800 dark:text-amber-200/90">
          {keyWithoutText ? t("home.signIn.keyDescription") : t("home.signIn.description")}
        </p>
      </div>
      <Link to="/admin" className={buttonClasses("primary", "md", "self-start sm:self-auto")}>
        <LogIn className="h-4 w-4" aria-hidden />
        {t("home.signIn.action")}
      </Link>
    </section>
  );
}
