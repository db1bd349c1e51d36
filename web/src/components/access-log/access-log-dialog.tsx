import { ChevronLeft, ChevronRight, Download, History, Trash2 } from "lucide-react";
import { useEffect, useState } from "react";
import { useTranslation } from "../../i18n";
import {
  type AccessLogEntry,
  type AccessLoggingState,
  accessLogApi,
  type LoggedShare,
} from "../../lib/access-log";
import { formatBytes } from "../../lib/file-size";
import { formatDateTime } from "../../lib/format";
import { saveLink } from "../../lib/save-link";
import { useErrorText } from "../../lib/use-error-text";
import { ConfirmDialog } from "../list/confirm-dialog";
import { Alert } from "../ui/alert";
import { Badge } from "../ui/badge";
import { Button } from "../ui/button";
import { CheckboxField } from "../ui/checkbox";
import { Dialog } from "../ui/dialog";
import { Spinner } from "../ui/spinner";
import { toast } from "../ui/toast";
import { useAccessLogPage, useClearAccessLog, useSetShareLogging } from "./hooks";

const PAGE_SIZE = 20;

/** Who opened a share, newest first: a table on wide screens, cards on phones, CSV export. */
export function AccessLogDialog({ share, onClose }: { share: LoggedShare | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Dialog
      open={share !== null}
      onOpenChange={(open) => !open && onClose()}
      size="lg"
      title={share ? t("accessLog.title", { name: share.name }) : ""}
      description={share?.type === "mount" ? t("accessLog.mountDescription") : t("accessLog.description")}
    >
      {share ? <AccessLogBody key={`${share.type}:${share.id}`} share={share} /> : null}
    </Dialog>
  );
}

function AccessLogBody({ share }: { share: LoggedShare }) {
  const { t, i18n } = useTranslation();
  const errorText = useErrorText();
  const [offset, setOffset] = useState(0);
  const log = useAccessLogPage(share, { limit: PAGE_SIZE, offset });
  const clear = useClearAccessLog();
  const setLogging = useSetShareLogging();
  const [confirming, setConfirming] = useState(false);
  const [clearError, setClearError] = useState<string | null>(null);
  const [exporting, setExporting] = useState(false);

  const total = log.data?.pagination.total ?? 0;
  useEffect(() => {
    if (offset > 0 && offset >= total && log.data) setOffset(Math.max(0, total - PAGE_SIZE));
  }, [offset, total, log.data]);

  if (log.isPending) return <Spinner />;
  if (log.isError) return <Alert>{errorText(log.error)}</Alert>;
  const { entries, logging } = log.data;
  // A mount's log holds visitors' downloads: it names each file, and has no switch or export of its own.
  const isMount = share.type === "mount";

  async function exportCsv() {
    setExporting(true);
    try {
      const text = await accessLogApi.csv(share);
      const url = URL.createObjectURL(new Blob([text ?? ""], { type: "text/csv;charset=utf-8" }));
      saveLink(url, `access-log-${share.slug}.csv`);
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (err) {
      toast(errorText(err), "error");
    } finally {
      setExporting(false);
    }
  }

  async function confirmClear() {
    try {
      const { deleted } = await clear.mutateAsync(share);
      toast(t("accessLog.cleared", { count: deleted }), "success");
      setConfirming(false);
      setOffset(0);
    } catch (err) {
      setClearError(errorText(err));
    }
  }

  const toggleLogging = (on: boolean) =>
    setLogging.mutate(
      { share, on },
      {
        onSuccess: () => toast(on ? t("accessLog.loggingOn") : t("accessLog.loggingOff"), "success"),
        onError: (err) => toast(errorText(err), "error"),
      },
    );

  return (
    <div className="space-y-4">
      {isMount ? (
        <p className="text-sm text-slate-600 dark:text-slate-300">
          {logging === "privacy_mode" ? t("accessLog.privacyModeHint") : t("accessLog.mountHint")}
        </p>
      ) : (
        <CheckboxField
          label={t("accessLog.shareSwitch")}
          description={
            logging === "privacy_mode" ? t("accessLog.privacyModeHint") : t("accessLog.shareSwitchHint")
          }
          checked={logging !== "share_off"}
          disabled={setLogging.isPending || logging === "privacy_mode"}
          onCheckedChange={toggleLogging}
        />
      )}

      {entries.length === 0 ? (
        <EmptyLog logging={logging} />
      ) : (
        <>
          <table
            className="hidden w-full text-left text-sm sm:table"
            aria-label={t("accessLog.tableCaption")}
          >
            <thead className="text-xs text-slate-500 dark:text-slate-400">
              <tr>
                <th scope="col" className="py-2 pr-3 font-medium">
                  {t("accessLog.columns.time")}
                </th>
                <th scope="col" className="py-2 pr-3 font-medium">
                  {t("accessLog.columns.kind")}
                </th>
                {isMount ? (
                  <th scope="col" className="py-2 pr-3 font-medium">
                    {t("accessLog.columns.path")}
                  </th>
                ) : null}
                <th scope="col" className="py-2 pr-3 text-right font-medium">
                  {t("accessLog.columns.bytes")}
                </th>
                <th scope="col" className="py-2 pr-3 font-medium">
                  {t("accessLog.columns.client")}
                </th>
                {log.data.ip_logging || entries.some((e) => e.ip) ? (
                  <th scope="col" className="py-2 font-medium">
                    {t("accessLog.columns.ip")}
                  </th>
                ) : null}
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
              {entries.map((entry) => (
                <tr key={entry.id} data-testid="access-log-row">
                  <td className="py-2 pr-3 whitespace-nowrap">{formatDateTime(entry.at, i18n.language)}</td>
                  <td className="py-2 pr-3">
                    <KindBadge entry={entry} />
                  </td>
                  {isMount ? <td className="py-2 pr-3 break-all">{entry.path}</td> : null}
                  <td className="py-2 pr-3 text-right tabular-nums">
                    <BytesText entry={entry} />
                  </td>
                  <td className="py-2 pr-3">
                    <ClientText entry={entry} />
                  </td>
                  {log.data.ip_logging || entries.some((e) => e.ip) ? (
                    <td className="py-2 font-mono text-xs break-all">{entry.ip ?? "—"}</td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
          <ul className="space-y-2 sm:hidden" aria-label={t("accessLog.tableCaption")}>
            {entries.map((entry) => (
              <li
                key={entry.id}
                data-testid="access-log-card"
                className="rounded-xl border border-slate-200 p-3 text-sm dark:border-slate-800"
              >
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <KindBadge entry={entry} />
                  <time dateTime={entry.at} className="text-xs text-slate-500 dark:text-slate-400">
                    {formatDateTime(entry.at, i18n.language)}
                  </time>
                </div>
                {isMount ? <p className="mt-1.5 break-all">{entry.path}</p> : null}
                <p className="mt-1.5 text-slate-700 dark:text-slate-300">
                  <ClientText entry={entry} /> · <BytesText entry={entry} />
                </p>
                {entry.ip ? <p className="mt-1 font-mono text-xs break-all">{entry.ip}</p> : null}
              </li>
            ))}
          </ul>
          <div className="flex flex-wrap items-center justify-between gap-2">
            <p className="text-xs text-slate-500 dark:text-slate-400" aria-live="polite">
              {t("accessLog.range", { from: offset + 1, to: offset + entries.length, count: total })}
            </p>
            <div className="flex gap-1">
              <Button
                variant="ghost"
                size="icon"
                title={t("accessLog.newer")}
                aria-label={t("accessLog.newer")}
                disabled={offset === 0}
                onClick={() => setOffset(Math.max(0, offset - PAGE_SIZE))}
              >
                <ChevronLeft className="h-4 w-4" aria-hidden />
              </Button>
              <Button
                variant="ghost"
                size="icon"
                title={t("accessLog.older")}
                aria-label={t("accessLog.older")}
                disabled={!log.data.pagination.hasMore}
                onClick={() => setOffset(offset + PAGE_SIZE)}
              >
                <ChevronRight className="h-4 w-4" aria-hidden />
              </Button>
            </div>
          </div>
        </>
      )}

      <div className="flex flex-wrap justify-end gap-2 border-t border-slate-200 pt-4 dark:border-slate-800">
        <Button variant="outline" disabled={total === 0} onClick={() => setConfirming(true)}>
          <Trash2 className="h-4 w-4" aria-hidden />
          {t("accessLog.clear")}
        </Button>
        {isMount ? null : (
          <Button variant="outline" disabled={total === 0 || exporting} onClick={() => void exportCsv()}>
            <Download className="h-4 w-4" aria-hidden />
            {t("accessLog.export")}
          </Button>
        )}
      </div>

      <ConfirmDialog
        open={confirming}
        busy={clear.isPending}
        error={clearError}
        onCancel={() => {
          setConfirming(false);
          setClearError(null);
        }}
        onConfirm={() => void confirmClear()}
        title={t("accessLog.clearTitle", { name: share.name })}
        description={t("accessLog.clearDescription", { count: total })}
      />
    </div>
  );
}

/** Says why there is nothing to show: no visits yet, this share's log is off, or privacy mode. */
function EmptyLog({ logging }: { logging: AccessLoggingState }) {
  const { t } = useTranslation();
  const text =
    logging === "privacy_mode"
      ? t("accessLog.empty.privacyMode")
      : logging === "share_off"
        ? t("accessLog.empty.shareOff")
        : t("accessLog.empty.none");
  return (
    <div
      className="flex flex-col items-center gap-2 rounded-xl border border-dashed border-slate-300 p-6 text-center text-sm text-slate-600 dark:border-slate-700 dark:text-slate-400"
      data-testid="access-log-empty"
    >
      <History className="h-6 w-6 text-slate-400" aria-hidden />
      <p>{text}</p>
    </div>
  );
}

function KindBadge({ entry }: { entry: AccessLogEntry }) {
  const { t } = useTranslation();
  const tone = entry.kind === "page_view" ? "neutral" : entry.kind === "raw" ? "accent" : "success";
  return <Badge tone={tone}>{t(`accessLog.kinds.${entry.kind}`)}</Badge>;
}

function BytesText({ entry }: { entry: AccessLogEntry }) {
  const { t } = useTranslation();
  return <>{entry.bytes === null ? t("accessLog.bytesUnknown") : formatBytes(entry.bytes)}</>;
}

function ClientText({ entry }: { entry: AccessLogEntry }) {
  const { t } = useTranslation();
  return (
    <>
      {t("accessLog.client", {
        browser: t(`accessLog.browsers.${entry.browser}`),
        os: t(`accessLog.systems.${entry.os}`),
      })}
    </>
  );
}
