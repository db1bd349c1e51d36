import { useQueryClient } from "@tanstack/react-query";
import { Layers, Upload } from "lucide-react";
import { useCallback, useMemo, useState } from "react";
import { ShareCollectionDialog } from "../../../components/collections/share-collection-dialog";
import { SignInRequired } from "../../../components/sign-in-required";
import { Alert } from "../../../components/ui/alert";
import { Button } from "../../../components/ui/button";
import { CheckboxField } from "../../../components/ui/checkbox";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "../../../components/ui/tabs";
import { useTranslation } from "../../../i18n";
import { useCapabilities } from "../../../lib/auth-store";
import { useReceivedShare } from "../../../lib/offline/use-received-share";
import { queueSummary } from "../../../lib/upload-engine/upload-queue";
import { useUploadQueue } from "../../../lib/upload-engine/use-upload-queue";
import { describeDuplicates, describeUploadFailure } from "../../../lib/upload-errors";
import { useErrorText } from "../../../lib/use-error-text";
import { shareTarget } from "../api/share-target";
import type { UploadResult } from "../api/upload-file";
import { recentUploadsQueryKey, useMaxUploadSize, useShareOptions } from "../hooks/use-upload-data";
import { uploadFields, validateUploadForm } from "../upload-form-model";
import { DropZone } from "./drop-zone";
import { RecentUploads } from "./recent-uploads";
import { UploadList } from "./upload-list";
import { UploadOptionsForm } from "./upload-options-form";
import { UrlUploadTab } from "./url-upload-tab";

function PageHeader() {
  const { t } = useTranslation();
  return (
    <header>
      <h1 className="text-2xl font-semibold tracking-tight">{t("upload.title")}</h1>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{t("upload.description")}</p>
    </header>
  );
}

function FileUploadTab() {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const { configs, values, setValues } = useShareOptions();
  const maxSize = useMaxUploadSize();
  const maxBytes = maxSize.data?.max_upload_size_bytes ?? null;
  const [showErrors, setShowErrors] = useState(false);
  const [encrypt, setEncrypt] = useState(false);

  const queryClient = useQueryClient();
  const targetFor = useCallback(
    (single: boolean) => shareTarget(uploadFields(values, single), encrypt),
    [values, encrypt],
  );
  const onCompleted = useCallback(
    () => void queryClient.invalidateQueries({ queryKey: recentUploadsQueryKey }),
    [queryClient],
  );
  const queue = useUploadQueue<UploadResult>({
    maxBytes,
    targetFor,
    describeError: describeUploadFailure,
    describeDuplicates,
    onCompleted,
  });
  // Files shared to the installed app join the list like files picked here.
  useReceivedShare((share) => {
    if (share && share.files.length > 0) queue.addFiles(share.files.map((file) => ({ file })));
  });
  const summary = queueSummary(queue.state);
  const uploaded = queue.state.items.flatMap((item) =>
    item.status === "success" && item.result ? [item.result] : [],
  );
  const [sharing, setSharing] = useState(false);
  const errors = useMemo(() => validateUploadForm(values, summary.allowSlug), [values, summary.allowSlug]);
  const hasErrors = Object.keys(errors).length > 0;

  const start = () => {
    setShowErrors(true);
    if (hasErrors) return;
    queue.startAll();
  };

  return (
    // On a phone the columns stack: the share options come between the list and the Upload
    // button, so they are seen before uploading; side by side, the options fill the right column.
    <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_22rem] lg:grid-rows-[auto_1fr] lg:gap-y-4">
      <div className="min-w-0 space-y-4">
        {configs.isError ? <Alert>{errorText(configs.error)}</Alert> : null}
        <DropZone addFiles={queue.addFiles} maxBytes={maxBytes} />
        <UploadList
          items={queue.state.items}
          onCancel={queue.cancel}
          onPause={queue.pause}
          onResume={queue.resume}
          onRetry={queue.retry}
          onRemove={queue.remove}
        />
      </div>
      <div className="min-w-0 lg:col-start-2 lg:row-span-2 lg:row-start-1">
        <UploadOptionsForm
          values={values}
          onChange={setValues}
          errors={showErrors ? errors : {}}
          configs={configs.data ?? []}
          configsLoading={configs.isPending}
          allowSlug={summary.allowSlug}
          disabled={false}
        >
          <CheckboxField
            label={t("e2e.fileOption")}
            description={t("e2e.fileOptionHint")}
            checked={encrypt}
            onCheckedChange={setEncrypt}
          />
        </UploadOptionsForm>
      </div>
      <div className="min-w-0 space-y-4 empty:hidden">
        {summary.total > 0 ? (
          <div className="flex flex-wrap items-center justify-between gap-3">
            <p className="text-sm text-slate-600 dark:text-slate-400" aria-live="polite">
              {t("upload.summary", {
                count: summary.total,
                success: summary.success,
                error: summary.error,
              })}
            </p>
            <div className="flex flex-wrap gap-2">
              {/* Several uploaded files: one more link (a collection) that leads to all of them. */}
              {uploaded.length > 1 ? (
                <Button variant="outline" onClick={() => setSharing(true)}>
                  <Layers className="h-4 w-4" aria-hidden />
                  {t("collections.shareTitle")}
                </Button>
              ) : null}
              {summary.success > 0 ? (
                <Button variant="outline" onClick={queue.clearFinished}>
                  {t("upload.clearFinished")}
                </Button>
              ) : null}
              <Button onClick={start} disabled={summary.waiting === 0 || !values.storageConfigId}>
                <Upload className="h-4 w-4" aria-hidden />
                {t("upload.start", { count: summary.waiting })}
              </Button>
            </div>
          </div>
        ) : null}
        {showErrors && hasErrors && summary.waiting > 0 ? <Alert>{t("upload.fixOptions")}</Alert> : null}
      </div>
      {sharing ? (
        <ShareCollectionDialog
          items={uploaded.map((file) => ({ file_id: file.id }))}
          description={t("collections.shareFiles", { count: uploaded.length })}
          onClose={() => setSharing(false)}
        />
      ) : null}
    </div>
  );
}

/** /upload: file upload (drag and drop, picker, paste) with share options, URL upload, recent uploads. */
export function UploadPage() {
  const { t } = useTranslation();
  const caps = useCapabilities();

  return (
    <div className="space-y-6">
      <PageHeader />
      {!caps.isAuthenticated ? (
        <SignInRequired
          title={t("upload.signIn.title")}
          description={t("upload.signIn.description")}
          action={t("upload.signIn.action")}
        />
      ) : !caps.file ? (
        <Alert>{t("upload.noPermission")}</Alert>
      ) : (
        <>
          <Tabs defaultValue="file">
            <TabsList aria-label={t("upload.tabs.label")} className="sm:max-w-md">
              <TabsTrigger value="file">{t("upload.tabs.file")}</TabsTrigger>
              <TabsTrigger value="url">{t("upload.tabs.url")}</TabsTrigger>
            </TabsList>
            {/* Kept mounted: switching tabs must not drop the upload list or stop running uploads. */}
            <TabsContent value="file" forceMount className="data-[state=inactive]:hidden">
              <FileUploadTab />
            </TabsContent>
            <TabsContent value="url">
              <UrlUploadTab />
            </TabsContent>
          </Tabs>
          <RecentUploads />
        </>
      )}
    </div>
  );
}
