import { LogIn, ShieldAlert } from "lucide-react";
import { useId } from "react";
import { Link, useLocation } from "react-router";
import { signInHref } from "../lib/sign-in-return";
import { buttonClasses } from "./ui/button";

/**
 * The one "sign in required" notice of every page that needs a signed-in
 * principal: what is needed, and a sign-in link that comes back to this page.
 * `action` is left out when signing in again would not help (a key that lacks
 * the permission).
 */
export function SignInRequired({
  title,
  description,
  action,
}: {
  title: string;
  description: string;
  action?: string;
}) {
  const titleId = useId();
  const location = useLocation();
  return (
    <section
      aria-labelledby={titleId}
      className="flex flex-col gap-3 rounded-2xl border border-amber-200 bg-amber-50 p-4 text-amber-900 sm:flex-row sm:items-center dark:border-amber-900/60 dark:bg-amber-950/30 dark:text-amber-100"
    >
      <ShieldAlert className="h-6 w-6 shrink-0 text-amber-600 dark:text-amber-400" aria-hidden />
      <div className="min-w-0 flex-1">
        <h2 id={titleId} className="text-sm font-semibold">
          {title}
        </h2>
        <p className="mt-0.5 text-sm text-amber-800 dark:text-amber-200/90">{description}</p>
      </div>
      {action ? (
        <Link
          to={signInHref(`${location.pathname}${location.search}`)}
          className={buttonClasses("primary", "md", "self-start sm:self-auto")}
        >
          <LogIn className="h-4 w-4" aria-hidden />
          {action}
        </Link>
      ) : null}
    </section>
  );
}
