import type { PublicFileRequest, ReceivedFile } from "@clipshare/shared";
import { useMutation, useQuery } from "@tanstack/react-query";
import { CalendarClock, CheckCircle2, Inbox, SearchX, UploadCloud } from "lucide-react";
import { type DragEvent, useCallback, useId, useRef, useState } from "react";
import { useParams } from "react-router";
import { PasswordPrompt } from "../../../components/password-prompt";
import { StatusCard } from "../../../components/status-card";
import { Alert } from "../../../components/ui/alert";
import { Badge } from "../../../components/ui/badge";
import { Button } from "../../../components/ui/button";
import { Input, Label } from "../../../components/ui/form";
import { ProgressBar } from "../../../components/ui/progress-bar";
import { useTranslation } from "../../../i18n";
import { isApiError } from "../../../lib/api-error";
import { cn } from "../../../lib/cn";
import { formatBytes } from "../../../lib/file-size";
import { formatDateTime } from "../../../lib/format";
import { useOwnTitle } from "../../../lib/page-title";
import { itemProgress, type UploadItem } from "../../../lib/upload-engine/upload-queue";
import { useUploadQueue } from "../../../lib/upload-engine/use-upload-queue";
import { useErrorText } from "../../../lib/use-error-text";
import { requestsApi, requestTarget, type Sender } from "../api/request-target";

/** A request's unlock token lives for this tab only (like a share's password token). */
const tokenKey = (slug: string) => `clipshare:request-token:${slug}`;

/** /r/:slug: the page a visitor uploads files to a file request on; no account needed. */
export function RequestPage() {
  const { slug = "" } = useParams();
  const { t } = useTranslation();
  const errorText = useErrorText();
  const [token, setToken] = useState<string | null>(() => sessionStorage.getItem(tokenKey(slug)));
  const request = useQuery({
    queryKey: ["file-request", slug, token],
    queryFn: () => requestsApi.visit(slug, token),
    retry: false,
    refetchOnWindowFocus: false,
  });
  const unlock = useMutation({
    mutationFn: (password: string) => requestsApi.unlock(slug, password),
    onSuccess: (data) => {
      sessionStorage.setItem(tokenKey(slug), data.token);
      setToken(data.token);
    },
  });
  useOwnTitle(request.data?.title ?? null);

  if (request.isPending)
    return <p className="py-10 text-center text-slate-500">{t("fileRequest.loading")}</p>;
  if (request.isError) {
    if (isApiError(request.error) && request.error.status === 404)
      return (
        <StatusCard
          icon={SearchX}
          title={t("fileRequest.missing.title")}
          description={t("fileRequest.missing.description")}
        />
      );
    return (
      <div className="mx-auto max-w-lg py-10">
        <Alert>{errorText(request.error)}</Alert>
      </div>
    );
  }
  const data = request.data;
  if (data.state === "closed" || data.state === "expired")
    return (
      <StatusCard
        icon={data.state === "closed" ? Inbox : CalendarClock}
        tone="warning"
        data-state={data.state}
        title={t(`fileRequest.${data.state}.title`)}
        description={t(`fileRequest.${data.state}.description`)}
      />
    );
  if (!data.unlocked)
    return (
      <div className="py-4 sm:py-10">
        <PasswordPrompt
          title={data.title}
          description={t("fileRequest.password.description")}
          texts={{
            label: t("fileRequest.password.label"),
            required: t("fileRequest.password.required"),
            submit: t("fileRequest.password.submit"),
            checking: t("fileRequest.password.checking"),
          }}
          busy={unlock.isPending}
          error={unlock.isError ? errorText(unlock.error) : null}
          onSubmit={(password) => unlock.mutate(password)}
        />
      </div>
    );
  return <RequestUpload slug={slug} token={token} request={data} onChange={() => void request.refetch()} />;
}

function RequestUpload({
  slug,
  token,
  request,
  onChange,
}: {
  slug: string;
  token: string | null;
  request: PublicFileRequest;
  onChange: () => void;
}) {
  const { t, i18n } = useTranslation();
  const errorText = useErrorText();
  const headingId = useId();
  const sender = useRef<Sender>({ name: "", note: "" });
  const [name, setName] = useState("");
  const [note, setNote] = useState("");
  sender.current = { name, note };
  const queue = useUploadQueue<ReceivedFile>({
    maxBytes: request.max_file_bytes,
    targetFor: () => requestTarget(slug, token, sender.current),
    describeError: (error) => ({ scope: "text", text: errorText(error) }),
    describeDuplicates: (names) => t("fileRequest.alreadyListed", { name: names.join(", ") }),
    onCompleted: onChange,
  });
  const add = useCallback(
    (files: File[]) =>
      queue.addFiles(
        files.map((file) => ({ file })),
        true,
      ),
    [queue],
  );
  const received = queue.state.items.filter((item) => item.status === "success");
  const inList = queue.state.items.filter((item) => item.status !== "success");
  const full = request.state === "full";

  return (
    <div className="mx-auto w-full max-w-2xl space-y-6 py-4 sm:py-8">
      <header className="space-y-2">
        <p className="text-sm font-medium text-indigo-600 dark:text-indigo-400">{t("fileRequest.kicker")}</p>
        <h1 id={headingId} className="text-2xl font-semibold tracking-tight break-words">
          {request.title}
        </h1>
        {request.message ? (
          <p className="whitespace-pre-wrap text-slate-700 dark:text-slate-300">{request.message}</p>
        ) : null}
        <Limits request={request} language={i18n.language} />
      </header>

      {full ? (
        <Alert tone="info">{t("fileRequest.full")}</Alert>
      ) : (
        <>
          <div className="grid gap-4 sm:grid-cols-2">
            <div className="space-y-1.5">
              <Label htmlFor="request-sender">{t("fileRequest.sender")}</Label>
              <Input
                id="request-sender"
                value={name}
                maxLength={100}
                autoComplete="name"
                onChange={(e) => setName(e.target.value)}
              />
            </div>
            <div className="space-y-1.5 sm:col-span-2">
              <Label htmlFor="request-note">{t("fileRequest.note")}</Label>
              <textarea
                id="request-note"
                value={note}
                maxLength={2000}
                rows={3}
                onChange={(e) => setNote(e.target.value)}
                className="w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm dark:border-slate-700 dark:bg-slate-950"
              />
            </div>
          </div>
          <RequestDropZone onFiles={add} />
        </>
      )}

      {inList.length > 0 ? (
        <section aria-label={t("fileRequest.uploading")} className="space-y-2">
          {inList.map((item) => (
            <UploadRow
              key={item.id}
              item={item}
              onCancel={() => queue.cancel(item.id)}
              onRetry={() => queue.retry(item.id)}
            />
          ))}
        </section>
      ) : null}

      <section aria-live="polite" aria-label={t("fileRequest.receipt.title")}>
        {received.length > 0 ? (
          <div className="rounded-2xl border border-emerald-200 bg-emerald-50 p-4 dark:border-emerald-900 dark:bg-emerald-950/40">
            <h2 className="flex items-center gap-2 font-semibold text-emerald-800 dark:text-emerald-200">
              <CheckCircle2 className="h-5 w-5" aria-hidden />
              {t("fileRequest.receipt.title")}
            </h2>
            <p className="mt-1 text-sm text-emerald-800 dark:text-emerald-200">
              {t("fileRequest.receipt.count", { count: received.length })}
            </p>
            <ul className="mt-3 space-y-1 text-sm" data-testid="request-receipt">
              {received.map((item) => (
                <li key={item.id} className="flex justify-between gap-3">
                  <span className="break-all">{item.name}</span>
                  <span className="shrink-0 tabular-nums text-slate-600 dark:text-slate-400">
                    {formatBytes(item.size)}
                  </span>
                </li>
              ))}
            </ul>
          </div>
        ) : null}
      </section>

      {request.received && request.received.length > 0 ? (
        <section className="space-y-2">
          <h2 className="font-semibold">{t("fileRequest.alreadyReceived")}</h2>
          <ul className="divide-y divide-slate-200 rounded-xl border border-slate-200 text-sm dark:divide-slate-800 dark:border-slate-800">
            {request.received.map((file) => (
              <li
                key={`${file.filename}-${file.received_at}`}
                className="flex justify-between gap-3 px-3 py-2"
              >
                <span className="break-all">{file.filename}</span>
                <span className="shrink-0 text-slate-600 dark:text-slate-400">
                  {formatBytes(file.size)} · {formatDateTime(file.received_at, i18n.language)}
                </span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}

function Limits({ request, language }: { request: PublicFileRequest; language: string }) {
  const { t } = useTranslation();
  const items: string[] = [];
  if (request.remaining_files !== null)
    items.push(t("fileRequest.limits.files", { count: request.remaining_files }));
  if (request.max_file_bytes !== null)
    items.push(t("fileRequest.limits.perFile", { size: formatBytes(request.max_file_bytes) }));
  if (request.remaining_bytes !== null)
    items.push(t("fileRequest.limits.total", { size: formatBytes(request.remaining_bytes) }));
  if (request.allowed_types)
    items.push(t("fileRequest.limits.types", { types: request.allowed_types.join(", ") }));
  if (request.expires_at)
    items.push(t("fileRequest.limits.until", { date: formatDateTime(request.expires_at, language) }));
  if (items.length === 0) return null;
  return (
    <ul className="flex flex-wrap gap-2" aria-label={t("fileRequest.limits.label")}>
      {items.map((text) => (
        <li key={text}>
          <Badge>{text}</Badge>
        </li>
      ))}
    </ul>
  );
}

/** Drag and drop, or the file picker; many files at once. */
function RequestDropZone({ onFiles }: { onFiles: (files: File[]) => void }) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const [active, setActive] = useState(false);
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setActive(false);
    const files = Array.from(event.dataTransfer?.files ?? []);
    if (files.length > 0) onFiles(files);
  };
  return (
    <section
      aria-label={t("fileRequest.dropZone")}
      onDragOver={(event) => {
        event.preventDefault();
        setActive(true);
      }}
      onDragLeave={() => setActive(false)}
      onDrop={onDrop}
      className={cn(
        "flex flex-col items-center justify-center rounded-2xl border-2 border-dashed px-6 py-10 text-center",
        active
          ? "border-indigo-500 bg-indigo-50/70 dark:border-indigo-400 dark:bg-indigo-950/40"
          : "border-slate-300 bg-white dark:border-slate-700 dark:bg-slate-900",
      )}
    >
      <UploadCloud className="mb-3 h-10 w-10 text-slate-400" aria-hidden />
      <p className="font-medium">{t("fileRequest.dropHint")}</p>
      <Button className="mt-4" onClick={() => input.current?.click()}>
        {t("fileRequest.choose")}
      </Button>
      <input
        ref={input}
        type="file"
        multiple
        hidden
        data-testid="request-file-input"
        onChange={(event) => {
          const files = Array.from(event.target.files ?? []);
          event.target.value = "";
          if (files.length > 0) onFiles(files);
        }}
      />
    </section>
  );
}

function UploadRow({
  item,
  onCancel,
  onRetry,
}: {
  item: UploadItem;
  onCancel: () => void;
  onRetry: () => void;
}) {
  const { t } = useTranslation();
  const { percent } = itemProgress(item);
  const failed = item.status === "error";
  return (
    <div className="rounded-xl border border-slate-200 p-3 dark:border-slate-800" data-status={item.status}>
      <div className="flex items-center justify-between gap-3 text-sm">
        <span className="break-all font-medium">{item.name}</span>
        <span className="shrink-0 tabular-nums text-slate-600 dark:text-slate-400">
          {formatBytes(item.size)}
        </span>
      </div>
      {failed ? (
        <p className="mt-2 text-sm text-red-700 dark:text-red-300" role="alert">
          {item.error?.scope === "text" ? item.error.text : t("fileRequest.failed")}
        </p>
      ) : (
        <div className="mt-2">
          <ProgressBar percent={percent} label={t("fileRequest.progress", { name: item.name })} />
        </div>
      )}
      <div className="mt-2 flex gap-2">
        {failed ? (
          <Button size="sm" variant="outline" onClick={onRetry}>
            {t("fileRequest.retry")}
          </Button>
        ) : null}
        <Button size="sm" variant="ghost" onClick={onCancel}>
          {t("fileRequest.cancel")}
        </Button>
      </div>
    </div>
  );
}
