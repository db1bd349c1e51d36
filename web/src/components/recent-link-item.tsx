import type { ReactNode } from "react";
import { Link } from "react-router";
import { cn } from "../lib/cn";
import { CopyLinkButton } from "./copy-link-button";
import { ShareQrButton } from "./share-qr-code";

/** A row of a "recent" list: what was shared (a link to its page), a line about it, Copy and QR code. */
export function RecentLinkItem({
  to,
  title,
  meta,
  link,
  copyLabel,
  name,
  mono = false,
}: {
  /** The share's page in this app. */
  to: string;
  title: ReactNode;
  meta: ReactNode;
  /** The full share link that Copy and the QR code carry. */
  link: string;
  copyLabel: string;
  /** What the link points to, for the QR dialog. */
  name: string;
  mono?: boolean;
}) {
  return (
    <li className="flex items-center gap-3 py-2.5">
      <div className="min-w-0 flex-1">
        <Link
          to={to}
          className={cn(
            "block truncate text-sm font-medium text-indigo-600 hover:underline dark:text-indigo-400",
            mono && "font-mono",
          )}
        >
          {title}
        </Link>
        <p className="truncate text-xs text-slate-500 dark:text-slate-400">{meta}</p>
      </div>
      <CopyLinkButton link={link} label={copyLabel} />
      <ShareQrButton url={link} name={name} variant="ghost" iconOnly />
    </li>
  );
}
