import { CalendarClock, CloudOff, Eye, LockKeyhole, ShieldCheck } from "lucide-react";
import { lazy, Suspense, useState } from "react";
import { Link, useParams } from "react-router";
import { OfflineCopyMark } from "../../../components/offline/offline-copy-mark";
import { PasswordPrompt } from "../../../components/password-prompt";
import { ShareUnavailable, unavailableReason } from "../../../components/share-unavailable";
import { StatusCard } from "../../../components/status-card";
import { PasteContent } from "../../../components/text-view/paste-content";
import { Alert } from "../../../components/ui/alert";
import { Badge } from "../../../components/ui/badge";
import { Button, buttonClasses } from "../../../components/ui/button";
import { useTranslation } from "../../../i18n";
import { isApiError } from "../../../lib/api-error";
import { formatDateTime } from "../../../lib/format";
import { formatOf, type TextFormat } from "../../../lib/markdown/detect";
import { useOwnTitle } from "../../../lib/page-title";
import type { PasteView } from "../../../lib/pastes/api";
import { useErrorText } from "../../../lib/use-error-text";
import { usePasteView, useUnlockPaste } from "../hooks/use-paste-view";
import { PasteSkeleton } from "./paste-skeleton";
import { PasteToolbar } from "./paste-toolbar";

// Only encrypted pastes need the decryption code: plain ones never load it.
const EncryptedPaste = lazy(() => import("./encrypted-paste").then((m) => ({ default: m.EncryptedPaste })));

/** /paste/{slug}: a shared paste, its password prompt, or why it is gone. */
export function PastePage() {
  const { slug = "" } = useParams();
  // A new slug is a new page: fresh state for format, wrap and password.
  return <PasteScreen key={slug} slug={slug} />;
}

function PasteScreen({ slug }: { slug: string }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const view = usePasteView(slug);
  const unlock = useUnlockPaste(slug);

  if (view.isPending) return <PasteSkeleton />;
  if (view.isError) {
    const reason = unavailableReason(view.error, "paste");
    if (reason) return <ShareUnavailable kind="paste" reason={reason} />;
    // Offline and not kept on this device: say so, like any page the browser has no copy of.
    if (isApiError(view.error) && (view.error.kind === "network" || view.error.kind === "timeout"))
      return (
        <StatusCard
          icon={CloudOff}
          title={t("offline.title")}
          description={t("offline.description")}
          data-reason="offline"
          actions={
            <>
              <Button onClick={() => void view.refetch()}>{t("offline.retry")}</Button>
              <Link to="/" className={buttonClasses("outline")}>
                {t("offline.home")}
              </Link>
            </>
          }
        />
      );
    return (
      <div className="mx-auto max-w-lg space-y-4 py-10">
        <Alert>{errorText(view.error)}</Alert>
        <Button variant="outline" onClick={() => void view.refetch()}>
          {t("offline.retry")}
        </Button>
      </div>
    );
  }

  const paste = view.data;
  if (paste.content === undefined || paste.requires_password) {
    const reason = unlock.isError ? unavailableReason(unlock.error, "paste") : null;
    if (reason) return <ShareUnavailable kind="paste" reason={reason} />;
    return (
      <div className="py-4 sm:py-10">
        <PasswordPrompt
          title={t("pasteView.password.title")}
          description={t("pasteView.password.description")}
          texts={{
            label: t("pastes.form.password"),
            required: t("pasteView.password.required"),
            submit: t("pasteView.password.submit"),
            checking: t("pasteView.password.checking"),
          }}
          onSubmit={(password) => unlock.mutate(password)}
          busy={unlock.isPending}
          error={unlock.isError ? errorText(unlock.error) : null}
        />
      </div>
    );
  }
  return (
    <>
      <OfflineCopyMark at={paste.offlineCopyAt} />
      {paste.encrypted ? (
        <Suspense fallback={<PasteSkeleton />}>
          <EncryptedPaste content={paste.content}>
            {(text) => <PasteDocument paste={paste} content={text} />}
          </EncryptedPaste>
        </Suspense>
      ) : (
        <PasteDocument paste={paste} content={paste.content} />
      )}
    </>
  );
}

function PasteDocument({ paste, content }: { paste: PasteView; content: string }) {
  const { t, i18n } = useTranslation();
  const [format, setFormat] = useState<TextFormat>(() => formatOf(content));
  const [wrap, setWrap] = useState(true);
  const title = paste.remark?.trim() || paste.slug;
  // "Visitors see it as the page title": the browser tab too.
  useOwnTitle(title);

  return (
    <article className="space-y-4" aria-labelledby="paste-title">
      <header className="rounded-2xl border border-slate-200 bg-white px-5 py-4 shadow-xs dark:border-slate-800 dark:bg-slate-900">
        <h1 id="paste-title" className="text-xl font-semibold tracking-tight break-words sm:text-2xl">
          {title}
        </h1>
        <ul className="mt-2 flex flex-wrap items-center gap-x-4 gap-y-1.5 text-sm text-slate-600 dark:text-slate-400">
          {paste.remark ? (
            <li className="font-mono text-xs text-slate-500 dark:text-slate-400">/paste/{paste.slug}</li>
          ) : null}
          <li>{t("pasteView.createdAt", { date: formatDateTime(paste.created_at, i18n.language) })}</li>
          <li className="inline-flex items-center gap-1.5" data-testid="paste-expiry">
            <CalendarClock className="h-4 w-4" aria-hidden />
            {paste.expires_at
              ? t("pastes.expiresOn", { date: formatDateTime(paste.expires_at, i18n.language) })
              : t("pastes.neverExpires")}
          </li>
          <li className="inline-flex items-center gap-1.5" data-testid="paste-views">
            <Eye className="h-4 w-4" aria-hidden />
            {paste.remaining_views === null
              ? t("pastes.unlimitedViews")
              : t("pastes.remainingViews", { count: paste.remaining_views, max: paste.max_views ?? 0 })}
          </li>
          {paste.encrypted ? (
            <li>
              <Badge tone="success" className="gap-1">
                <ShieldCheck className="h-3 w-3" aria-hidden />
                {t("e2e.badge")}
              </Badge>
            </li>
          ) : null}
          {paste.has_password ? (
            <li>
              <Badge tone="warning" className="gap-1">
                <LockKeyhole className="h-3 w-3" aria-hidden />
                {t("pastes.passwordProtected")}
              </Badge>
            </li>
          ) : null}
        </ul>
      </header>

      {paste.is_last_view ? <Alert tone="info">{t("pasteView.lastView")}</Alert> : null}
      {paste.encrypted ? (
        <p className="text-sm text-slate-600 dark:text-slate-400" data-testid="e2e-notice">
          {t("e2e.notice")}
        </p>
      ) : null}

      <PasteToolbar
        paste={paste}
        content={content}
        format={format}
        onFormatChange={setFormat}
        wrap={wrap}
        onWrapChange={setWrap}
      />

      <section
        aria-label={t("pasteView.contentRegion")}
        className="min-h-[50vh] rounded-2xl border border-slate-200 bg-white p-5 shadow-xs sm:p-6 dark:border-slate-800 dark:bg-slate-900"
      >
        <PasteContent content={content} format={format} wrap={wrap} />
      </section>
    </article>
  );
}
