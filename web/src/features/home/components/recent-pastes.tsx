import { RecentLinkItem } from "../../../components/recent-link-item";
import { Button } from "../../../components/ui/button";
import { Card, CardHeader } from "../../../components/ui/card";
import { useTranslation } from "../../../i18n";
import { formatDateTime } from "../../../lib/format";
import { type RecentPaste, recentPastes } from "../../../lib/recent-pastes";
import { pasteLink } from "../../../lib/share-links";

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
            <RecentLinkItem
              key={paste.slug}
              to={`/paste/${encodeURIComponent(paste.slug)}`}
              title={link}
              mono
              meta={
                <>
                  {formatDateTime(paste.created_at, i18n.language)}
                  {paste.has_password ? ` · ${t("pastes.passwordProtected")}` : ""}
                  {paste.expires_at
                    ? ` · ${t("pastes.expiresOn", { date: formatDateTime(paste.expires_at, i18n.language) })}`
                    : ""}
                </>
              }
              link={link}
              copyLabel={t("home.recent.copyLinkOf", { slug: paste.slug })}
              name={`/paste/${paste.slug}`}
            />
          );
        })}
      </ul>
    </Card>
  );
}
