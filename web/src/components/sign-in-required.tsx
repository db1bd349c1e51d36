import { Globe, LogIn, ShieldAlert } from "lucide-react";
import { useId } from "react";
import { Link, useLocation } from "react-router";
import { signInHref } from "../lib/sign-in-return";
import { buttonClasses } from "./ui/button";

const TONES = {
  /** Something needs signing in. */
  warning: {
    box: "border-amber-200 bg-amber-50 text-amber-900 dark:border-amber-900/60 dark:bg-amber-950/30 dark:text-amber-100",
    icon: "text-amber-600 dark:text-amber-400",
    text: "text-amber-800 dark:text-amber-200/90",
    Icon: ShieldAlert,
  },
  /** Signing in would show more (a visitor browsing the public part). */
  info: {
    box: "border-sky-200 bg-sky-50 text-sky-900 dark:border-sky-900/60 dark:bg-sky-950/30 dark:text-sky-100",
    icon: "text-sky-600 dark:text-sky-400",
    text: "text-sky-800 dark:text-sky-200/90",
    Icon: Globe,
  },
} as const;

/**
 * The one "sign in required" notice of every page that needs a signed-in
 * principal: what is needed, and a sign-in link that comes back to this page.
 * `action` is left out when signing in again would not help (a key that lacks
 * the permission). `tone="info"`: the page works, signing in shows more.
 */
export function SignInRequired({
  title,
  description,
  action,
  tone = "warning",
}: {
  title: string;
  description: string;
  action?: string;
  tone?: keyof typeof TONES;
}) {
  const titleId = useId();
  const location = useLocation();
  const look = TONES[tone];
  return (
    <section
      aria-labelledby={titleId}
      className={`flex flex-col gap-3 rounded-2xl border p-4 sm:flex-row sm:items-center ${look.box}`}
    >
      <look.Icon className={`h-6 w-6 shrink-0 ${look.icon}`} aria-hidden />
      <div className="min-w-0 flex-1">
        <h2 id={titleId} className="text-sm font-semibold">
          {title}
        </h2>
        <p className={`mt-0.5 text-sm ${look.text}`}>{description}</p>
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
