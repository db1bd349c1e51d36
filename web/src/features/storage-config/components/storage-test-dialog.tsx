import { CheckCircle2, CircleSlash, RotateCcw, XCircle } from "lucide-react";
import { useEffect } from "react";
import { Alert } from "../../../components/ui/alert";
import { Badge } from "../../../components/ui/badge";
import { Button } from "../../../components/ui/button";
import { Dialog } from "../../../components/ui/dialog";
import { Spinner } from "../../../components/ui/spinner";
import { useTranslation } from "../../../i18n";
import { useErrorText } from "../../../lib/use-error-text";
import type { StorageConfig } from "../api/storage-configs";
import { useTestStorageConfig } from "../hooks/use-storage-configs";
import { CHECK_ORDER, checkHint, checkState } from "../storage-config-form-model";

/** Runs POST /s3-configs/:id/test and shows each check (write, read, list, presign, CORS) with hints. */
export function StorageTestDialog({
  config,
  onClose,
}: {
  config: StorageConfig | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const test = useTestStorageConfig();
  const run = test.mutate;
  const reset = test.reset;

  // biome-ignore lint/correctness/useExhaustiveDependencies: run once per opened config
  useEffect(() => {
    if (config) run(config.id);
    else reset();
  }, [config?.id]);

  const outcome = test.data;
  const origin = typeof window === "undefined" ? "" : window.location.origin;

  return (
    <Dialog
      open={config !== null}
      onOpenChange={(open) => !open && onClose()}
      size="lg"
      title={t("storageConfig.test.title", { name: config?.name ?? "" })}
      description={t("storageConfig.test.description")}
      footer={
        <>
          <Button
            variant="outline"
            disabled={test.isPending || !config}
            onClick={() => config && test.mutate(config.id)}
          >
            <RotateCcw className="h-4 w-4" aria-hidden />
            {t("storageConfig.test.again")}
          </Button>
          <Button onClick={onClose}>{t("common.close")}</Button>
        </>
      }
    >
      {test.isPending ? (
        <div className="flex items-center gap-2 py-6 text-sm text-slate-600 dark:text-slate-300">
          <Spinner />
          {t("storageConfig.test.running")}
        </div>
      ) : test.isError ? (
        <Alert>{errorText(test.error)}</Alert>
      ) : outcome && config ? (
        <div className="space-y-4">
          <Alert tone={outcome.success ? "success" : "error"}>
            {outcome.success ? t("storageConfig.test.passed") : t("storageConfig.test.failed")}
          </Alert>
          <ul className="space-y-2" aria-label={t("storageConfig.test.results")}>
            {CHECK_ORDER.map((name) => {
              const check = outcome.result[name];
              const state = checkState(check);
              const hint = check ? checkHint(name, check, config.storage_type) : null;
              const Icon = state === "passed" ? CheckCircle2 : state === "failed" ? XCircle : CircleSlash;
              return (
                <li
                  key={name}
                  aria-label={t(`storageConfig.test.checks.${name}`)}
                  data-state={state}
                  className="rounded-xl border border-slate-200 p-3 dark:border-slate-800"
                >
                  <div className="flex flex-wrap items-center gap-2">
                    <Icon
                      className={
                        state === "passed"
                          ? "h-4 w-4 text-emerald-600 dark:text-emerald-400"
                          : state === "failed"
                            ? "h-4 w-4 text-red-600 dark:text-red-400"
                            : "h-4 w-4 text-slate-400"
                      }
                      aria-hidden
                    />
                    <span className="font-medium">{t(`storageConfig.test.checks.${name}`)}</span>
                    <Badge tone={state === "passed" ? "success" : state === "failed" ? "danger" : "neutral"}>
                      {t(`storageConfig.test.states.${state}`)}
                    </Badge>
                    {check && !check.skipped ? (
                      <span className="text-xs text-slate-500 dark:text-slate-400">
                        {t("storageConfig.test.duration", { ms: check.durationMs })}
                      </span>
                    ) : null}
                  </div>
                  {check?.note ? (
                    <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{check.note}</p>
                  ) : null}
                  {typeof check?.hostKey === "string" ? (
                    <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">
                      {t("storageConfig.test.hostKey")}{" "}
                      <code className="font-mono text-xs break-all" data-testid="host-key">
                        {check.hostKey}
                      </code>
                    </p>
                  ) : null}
                  {check?.error ? (
                    <p className="mt-1 text-sm break-words text-red-700 dark:text-red-300">{check.error}</p>
                  ) : null}
                  {typeof check?.hint === "string" && check.hint ? (
                    <p className="mt-1 text-sm text-amber-700 dark:text-amber-300">{check.hint}</p>
                  ) : null}
                  {hint && !(typeof check?.hint === "string" && check.hint) ? (
                    <p className="mt-1 text-sm text-amber-700 dark:text-amber-300">
                      {t(`storageConfig.test.hints.${hint}`, { origin })}
                    </p>
                  ) : null}
                </li>
              );
            })}
          </ul>
        </div>
      ) : null}
    </Dialog>
  );
}
