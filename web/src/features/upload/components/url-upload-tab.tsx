import { useQueryClient } from "@tanstack/react-query";
import { Download, Link2, Server, X } from "lucide-react";
import { type FormEvent, useCallback, useMemo, useState } from "react";
import { Link } from "react-router";
import { CopyLinkButton } from "../../../components/copy-link-button";
import { ShareQrButton } from "../../../components/share-qr-code";
import { Alert } from "../../../components/ui/alert";
import { Button } from "../../../components/ui/button";
import { Card } from "../../../components/ui/card";
import { Field, Input } from "../../../components/ui/form";
import { ProgressBar } from "../../../components/ui/progress-bar";
import { useFailureText } from "../../../components/upload-progress";
import { useTranslation } from "../../../i18n";
import { formatBytes } from "../../../lib/file-size";
import { fileShareUrl } from "../../../lib/share-links";
import { describeUploadFailure } from "../../../lib/upload-errors";
import { type RemoteFileInfo, urlApi } from "../api/url-upload";
import { recentUploadsQueryKey, useShareOptions } from "../hooks/use-upload-data";
import { type UrlUploadMode, useUrlUpload } from "../hooks/use-url-upload";
import { uploadFields, validateUploadForm } from "../upload-form-model";
import { urlUploadPercent } from "../url-upload-model";
import { UploadOptionsForm } from "./upload-options-form";

/** /upload's URL tab: check a remote file, then fetch it in the browser or on the server into a share. */
export function UrlUploadTab() {
  const { t } = useTranslation();
  const failureText = useFailureText();
  const queryClient = useQueryClient();
  const { configs, values, setValues } = useShareOptions();
  const [url, setUrl] = useState("");
  const [info, setInfo] = useState<RemoteFileInfo | null>(null);
  const [checking, setChecking] = useState(false);
  const [infoError, setInfoError] = useState<string | null>(null);
  const [mode, setMode] = useState<UrlUploadMode>("browser");
  const onDone = useCallback(
    () => void queryClient.invalidateQueries({ queryKey: recentUploadsQueryKey }),
    [queryClient],
  );
  const job = useUrlUpload(onDone);
  const errors = useMemo(() => validateUploadForm(values, true), [values]);
  const running = job.state.status === "running";

  const check = async (event: FormEvent) => {
    event.preventDefault();
    setChecking(true);
    setInfo(null);
    setInfoError(null);
    job.reset();
    try {
      setInfo(await urlApi.info(url.trim()));
    } catch (error) {
      setInfoError(failureText(describeUploadFailure(error)));
    } finally {
      setChecking(false);
    }
  };

  const { state } = job;
  const percent =
    state.mode === "server"
      ? state.phase === "done"
        ? 100
        : state.total
          ? Math.min(99, Math.floor((state.loaded / state.total) * 99))
          : 0
      : urlUploadPercent(state.phase, state.loaded, state.total);
  const link = state.slug ? fileShareUrl(state.slug) : null;

  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]">
      <div className="min-w-0 space-y-4">
        <Card className="space-y-4 p-5">
          <form onSubmit={check} className="flex flex-wrap items-end gap-2">
            <div className="min-w-0 flex-1">
              <Field label={t("urlUpload.url")}>
                {({ id }) => (
                  <Input
                    id={id}
                    type="url"
                    value={url}
                    placeholder="https://"
                    onChange={(e) => setUrl(e.target.value)}
                    disabled={running}
                  />
                )}
              </Field>
            </div>
            <Button type="submit" variant="outline" disabled={!url.trim() || checking || running}>
              <Link2 className="h-4 w-4" aria-hidden />
              {t("urlUpload.check")}
            </Button>
          </form>
          {infoError ? <Alert>{infoError}</Alert> : null}
          {info ? (
            <div className="space-y-3" data-testid="url-info">
              <p className="text-sm">
                <span className="font-medium break-all">{info.filename}</span>
                <span className="text-slate-500 dark:text-slate-400">
                  {" · "}
                  {info.size !== null ? formatBytes(info.size) : t("urlUpload.sizeUnknown")}
                  {" · "}
                  {info.contentType}
                </span>
              </p>
              <fieldset className="flex flex-wrap gap-4 text-sm" disabled={running}>
                <legend className="sr-only">{t("urlUpload.mode")}</legend>
                {(["browser", "server"] as const).map((m) => (
                  <label key={m} className="inline-flex items-center gap-2">
                    <input type="radio" name="url-mode" checked={mode === m} onChange={() => setMode(m)} />
                    {m === "browser" ? (
                      <Download className="h-4 w-4" aria-hidden />
                    ) : (
                      <Server className="h-4 w-4" aria-hidden />
                    )}
                    {t(m === "browser" ? "urlUpload.inBrowser" : "urlUpload.onServer")}
                  </label>
                ))}
              </fieldset>
              <div className="flex gap-2">
                <Button
                  disabled={running || Object.keys(errors).length > 0 || !values.storageConfigId}
                  onClick={() => job.start(info, uploadFields(values, true), mode)}
                >
                  {t("urlUpload.start")}
                </Button>
                {running ? (
                  <Button variant="outline" onClick={job.cancel}>
                    <X className="h-4 w-4" aria-hidden />
                    {t("upload.cancel")}
                  </Button>
                ) : null}
              </div>
            </div>
          ) : null}
          {state.status !== "idle" ? (
            <div className="space-y-1 text-sm" data-testid="url-job" data-status={state.status}>
              <ProgressBar percent={percent} label={t("urlUpload.progress")} />
              <p className="text-slate-600 dark:text-slate-400">
                {t(`urlUpload.phase.${state.status === "running" ? state.phase : state.status}`)}
                {` · ${percent}%`}
                {state.loaded > 0 ? ` · ${formatBytes(state.loaded)}` : ""}
                {state.via === "proxy" ? ` · ${t("urlUpload.viaProxy")}` : ""}
              </p>
              {state.failure ? (
                <Alert>
                  {state.failure.step === "fetch"
                    ? t("urlUpload.fetchFailed", { reason: failureText(state.failure.detail) })
                    : t("urlUpload.uploadFailed", { reason: failureText(state.failure.detail) })}
                </Alert>
              ) : null}
              {link && state.slug ? (
                // Copy and QR code like a finished file upload: the link is what the user came for.
                <div className="flex flex-wrap items-center gap-1" data-testid="url-result">
                  <Link
                    to={`/file/${encodeURIComponent(state.slug)}`}
                    className="min-w-0 font-medium break-all text-indigo-600 hover:underline dark:text-indigo-400"
                  >
                    {link}
                  </Link>
                  <CopyLinkButton
                    link={link}
                    label={t("upload.copyLinkOf", { name: info?.filename ?? state.slug })}
                  />
                  <ShareQrButton url={link} name={info?.filename ?? state.slug} variant="ghost" iconOnly />
                </div>
              ) : null}
            </div>
          ) : null}
        </Card>
      </div>
      <div className="min-w-0">
        <UploadOptionsForm
          values={values}
          onChange={setValues}
          errors={errors}
          configs={configs.data ?? []}
          configsLoading={configs.isPending}
          allowSlug
          disabled={running}
          titleId="url-upload-options-title"
        />
      </div>
    </div>
  );
}
