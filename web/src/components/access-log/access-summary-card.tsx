import { ACCESS_KINDS } from "@clipshare/shared";
import { useTranslation } from "../../i18n";
import { formatCount } from "../../lib/format";
import { useErrorText } from "../../lib/use-error-text";
import { Alert } from "../ui/alert";
import { Card, CardHeader } from "../ui/card";
import { Spinner } from "../ui/spinner";
import { useAccessSummary } from "./hooks";

/** Dashboard card: share accesses of the last 7 days by kind, and the most visited shares. */
export function AccessSummaryCard() {
  const { t, i18n } = useTranslation();
  const errorText = useErrorText();
  const summary = useAccessSummary();
  return (
    <Card aria-labelledby="dashboard-access-title" className="min-w-0">
      <CardHeader
        headingLevel={3}
        titleId="dashboard-access-title"
        title={t("accessLog.summary.title")}
        description={t("accessLog.summary.description", { count: summary.data?.days ?? 7 })}
      />
      <div className="p-5">
        {summary.isPending ? (
          <Spinner />
        ) : summary.isError ? (
          <Alert>{errorText(summary.error)}</Alert>
        ) : (
          <div className="space-y-4">
            <p className="text-3xl font-semibold tabular-nums" data-testid="access-summary-total">
              {formatCount(summary.data.total, i18n.language)}
            </p>
            {summary.data.privacy_mode ? (
              <p className="text-sm text-slate-600 dark:text-slate-400">
                {t("accessLog.summary.privacyMode")}
              </p>
            ) : null}
            <dl className="grid grid-cols-2 gap-2 sm:grid-cols-3">
              {ACCESS_KINDS.map((kind) => (
                <div key={kind} className="min-w-0">
                  <dt className="text-xs text-slate-500 dark:text-slate-400">
                    {t(`accessLog.kinds.${kind}`)}
                  </dt>
                  <dd className="font-semibold tabular-nums">
                    {formatCount(summary.data.by_kind[kind], i18n.language)}
                  </dd>
                </div>
              ))}
            </dl>
            {summary.data.top.length > 0 ? (
              <div>
                <h4 className="text-sm font-medium">{t("accessLog.summary.top")}</h4>
                <ol className="mt-1 space-y-1 text-sm">
                  {summary.data.top.map((share) => (
                    <li key={`${share.share_type}:${share.id}`} className="flex justify-between gap-3">
                      <span className="min-w-0 truncate font-mono">{share.name ?? share.slug}</span>
                      <span className="shrink-0 tabular-nums text-slate-600 dark:text-slate-400">
                        {t("accessLog.summary.accesses", { count: share.accesses })}
                      </span>
                    </li>
                  ))}
                </ol>
              </div>
            ) : null}
          </div>
        )}
      </div>
    </Card>
  );
}
