import { Check, Copy, ExternalLink, Link2, X } from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import { QrCode } from "../../../components/qr-code";
import { Badge } from "../../../components/ui/badge";
import { Button, buttonClasses } from "../../../components/ui/button";
import { Label } from "../../../components/ui/form";
import { toast } from "../../../components/ui/toast";
import { useTranslation } from "../../../i18n";
import { copyText } from "../../../lib/clipboard";
import { formatDateTime } from "../../../lib/format";
import type { CreatedPaste } from "../../../lib/pastes/api";
import { pasteLink } from "../../../lib/share-links";

export function ShareResult({
  created,
  fragment,
  passwordSet,
  onDone,
}: {
  created: CreatedPaste;
  /** The key of an end-to-end encrypted paste: part of the link, known only here. */
  fragment?: string;
  /** A password was set: for an encrypted paste the server never saw it, so only this page knows. */
  passwordSet: boolean;
  onDone: () => void;
}) {
  const { t, i18n } = useTranslation();
  const inputId = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const [copied, setCopied] = useState(false);
  const link = fragment ? `${pasteLink(created.slug)}#${fragment}` : pasteLink(created.slug);

  // The link stays until the next paste replaces it or the user hides it: a link that vanishes
  // while someone looks for the copy button is lost.
  useEffect(() => {
    headingRef.current?.focus();
    headingRef.current?.scrollIntoView({ block: "nearest", behavior: "smooth" });
  }, []);

  async function copy() {
    const ok = await copyText(link);
    setCopied(ok);
    toast(ok ? t("common.copied") : t("common.copyFailed"), ok ? "success" : "error");
  }

  return (
    <section
      aria-labelledby={`${inputId}-title`}
      className="rounded-2xl border border-emerald-200 bg-white shadow-xs dark:border-emerald-900/60 dark:bg-slate-900"
    >
      <div className="flex items-start justify-between gap-3 border-b border-emerald-100 px-5 py-4 dark:border-emerald-900/40">
        <div className="min-w-0">
          <h2
            id={`${inputId}-title`}
            ref={headingRef}
            tabIndex={-1}
            className="flex items-center gap-2 text-base font-semibold text-emerald-700 outline-none dark:text-emerald-300"
          >
            <Link2 className="h-4 w-4" aria-hidden />
            {t("home.result.title")}
          </h2>
          <p className="mt-0.5 text-sm text-slate-500 dark:text-slate-400">{t("home.result.staysUntil")}</p>
        </div>
        <Button variant="ghost" size="icon" onClick={onDone} aria-label={t("home.result.hide")}>
          <X className="h-4 w-4" aria-hidden />
        </Button>
      </div>
      <div className="flex flex-col gap-5 p-5 sm:flex-row sm:items-start">
        <div className="min-w-0 flex-1 space-y-3">
          <Label htmlFor={inputId}>{t("home.result.link")}</Label>
          <div className="flex items-start gap-2">
            {/* Wraps instead of scrolling: on a phone the slug at the end must stay visible. */}
            <textarea
              id={inputId}
              readOnly
              rows={1}
              value={link}
              className="block min-h-10 w-full resize-none rounded-lg border border-slate-300 bg-white px-3 py-2 font-mono text-sm break-all text-slate-900 shadow-xs [field-sizing:content] focus:border-indigo-500 focus:ring-2 focus:ring-indigo-500/30 focus:outline-none dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
              onFocus={(e) => e.currentTarget.select()}
            />
            <Button variant="outline" onClick={() => void copy()} aria-label={t("home.result.copyLink")}>
              {copied ? <Check className="h-4 w-4" aria-hidden /> : <Copy className="h-4 w-4" aria-hidden />}
              <span className="hidden sm:inline">{copied ? t("common.copied") : t("common.copy")}</span>
            </Button>
          </div>
          <div className="flex flex-wrap gap-1.5">
            {created.has_password || passwordSet ? (
              <Badge tone="warning">{t("pastes.passwordProtected")}</Badge>
            ) : null}
            {created.encrypted ? <Badge tone="success">{t("e2e.badge")}</Badge> : null}
            <Badge>
              {created.expires_at
                ? t("pastes.expiresOn", { date: formatDateTime(created.expires_at, i18n.language) })
                : t("pastes.neverExpires")}
            </Badge>
            <Badge>
              {created.max_views
                ? t("pastes.maxViewsValue", { count: created.max_views })
                : t("pastes.unlimitedViews")}
            </Badge>
          </div>
          {fragment ? (
            <p className="text-xs text-slate-600 dark:text-slate-400" data-testid="e2e-link-note">
              {t("e2e.linkNote")}
            </p>
          ) : null}
          {created.has_password || passwordSet ? (
            <p className="text-xs text-slate-600 dark:text-slate-400">{t("home.result.passwordNeeded")}</p>
          ) : null}
          <a href={link} target="_blank" rel="noopener" className={buttonClasses("secondary", "sm")}>
            <ExternalLink className="h-4 w-4" aria-hidden />
            {t("home.result.open")}
          </a>
        </div>
        <QrCode value={link} label={t("pastes.qrAlt", { link })} className="self-center sm:self-start" />
      </div>
    </section>
  );
}
