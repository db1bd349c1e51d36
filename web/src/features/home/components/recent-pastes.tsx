import { Link } from "react-router";
import { CopyLinkButton } from "../../../components/copy-link-button";
import { ShareQrButton } from "../../../components/share-qr-code";
import { Button } from "../../../components/ui/button";
import { Card, CardHeader } from "../../../components/ui/card";
import { useTranslation } from "../../../i18n";
import { formatDateTime } from "../../../lib/format";
import { type RecentPaste, recentPastes } from "../../../lib/recent-pastes";
import { pasteLink } from "../../pastes";

/** The last pastes made in this browser, with link, copy and QR code. Its own chunk: Home loads it once there is one. */
export default function RecentPastes({ pastes }: { pastes: RecentPaste[] }) {
  const { t, i18n } = useTranslation();

  return (
    <Card aria-labelledby="recent-pastes-title">
      <CardHeader
        titleId="recent-pastes-title"
        title={t("home.recent.title")}
        description={t("home.recent.description")}
        actions={
          <Button variant="ghost" size="sm" onClick={recentPastes.clear}>
            {t("home.recent.clear")}
          </Button>
        }
      />
      <ul
        className="divide-y divide-slate-100 px-5 py-2 dark:divide-slate-800"
        aria-label={t("home.recent.title")}
      >
        {pastes.map((paste) => {
          const link = pasteLink(paste.slug);
          return (
            <li key={paste.slug} className="flex items-center gap-3 py-2.5">
              <div className="min-w-0 flex-1">
                <Link
                  to={`/paste/${encodeURIComponent(paste.slug)}`}
                  className="block truncate font-mono text-sm font-medium text-indigo-600 hover:underline dark:text-indigo-400"
                >
                  {link}
                </Link>
                <p className="truncate text-xs text-slate-500 dark:text-slate-400">
                  {formatDateTime(paste.createdAt, i18n.language)}
                  {paste.hasPassword ? ` · ${t("pastes.passwordProtected")}` : ""}
                  {paste.expiresAt
                    ? ` · ${t("pastes.expiresOn", { date: formatDateTime(paste.expiresAt, i18n.language) })}`
                    : ""}
                </p>
              </div>
              <CopyLinkButton link={link} label={t("home.recent.copyLinkOf", { slug: paste.slug })} />
              <ShareQrButton url={link} name={`/paste/${paste.slug}`} variant="ghost" iconOnly />
            </li>
          );
        })}
      </ul>
    </Card>
  );
}
