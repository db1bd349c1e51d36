import type { CreateFileRequestBody, FileRequest } from "@clipshare/shared";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Inbox } from "lucide-react";
import { type FormEvent, useState } from "react";
import { Link } from "react-router";
import { CopyLinkButton } from "../../../components/copy-link-button";
import { Badge } from "../../../components/ui/badge";
import { Button } from "../../../components/ui/button";
import { Card, CardHeader } from "../../../components/ui/card";
import { CheckboxField } from "../../../components/ui/checkbox";
import { SelectField, TextField } from "../../../components/ui/form";
import { RefreshButton } from "../../../components/ui/refresh-button";
import { toast } from "../../../components/ui/toast";
import { useTranslation } from "../../../i18n";
import { formatBytes } from "../../../lib/file-size";
import { formatDateTime } from "../../../lib/format";
import { useErrorText } from "../../../lib/use-error-text";
import { requestsApi } from "../api/request-target";

const LIST_KEY = ["file-requests"] as const;
const MiB = 1024 * 1024;

/** Admin module "file requests": the caller's requests (the admin: all), a new one, and per request what arrived. */
export function FileRequestsModule() {
  const { t } = useTranslation();
  const list = useQuery({ queryKey: LIST_KEY, queryFn: requestsApi.list });
  const [open, setOpen] = useState<string | null>(null);
  return (
    <div className="space-y-6">
      <Card aria-labelledby="requests-list-title">
        <CardHeader
          titleId="requests-list-title"
          title={t("admin.modules.fileRequests")}
          description={t("fileRequests.createHint")}
          actions={<RefreshButton onClick={() => void list.refetch()} busy={list.isFetching} />}
        />
        <ul className="divide-y divide-slate-200 dark:divide-slate-800" data-testid="request-list">
          {list.data?.length === 0 ? (
            <li className="px-5 py-8 text-center text-sm text-slate-500 dark:text-slate-400">
              {t("fileRequests.empty")}
            </li>
          ) : null}
          {list.data?.map((request) => (
            <RequestRow
              key={request.id}
              request={request}
              expanded={open === request.id}
              onToggle={() => setOpen(open === request.id ? null : request.id)}
            />
          ))}
        </ul>
      </Card>
      <CreateRequestCard />
    </div>
  );
}

function CreateRequestCard() {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const qc = useQueryClient();
  const [form, setForm] = useState({
    title: "",
    message: "",
    kind: "share" as "share" | "folder",
    folder: "",
    maxFiles: "",
    maxFileMb: "",
    types: "",
    expiresIn: "",
    password: "",
    showReceived: false,
  });
  const set = (changes: Partial<typeof form>) => setForm((f) => ({ ...f, ...changes }));
  const create = useMutation({
    mutationFn: (body: CreateFileRequestBody) => requestsApi.create(body),
    onSuccess: () => {
      toast(t("fileRequests.created"), "success");
      setForm((f) => ({ ...f, title: "", message: "", password: "" }));
      void qc.invalidateQueries({ queryKey: LIST_KEY });
    },
    onError: (error) => toast(errorText(error), "error"),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const types = form.types
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean);
    create.mutate({
      title: form.title,
      ...(form.message ? { message: form.message } : {}),
      target: form.kind === "folder" ? { kind: "folder", path: form.folder } : { kind: "share" },
      ...(form.maxFiles ? { max_files: Number(form.maxFiles) } : {}),
      ...(form.maxFileMb ? { max_file_bytes: Math.round(Number(form.maxFileMb) * MiB) } : {}),
      ...(types.length ? { allowed_types: types } : {}),
      ...(form.expiresIn ? { expires_in: Number(form.expiresIn) } : {}),
      ...(form.password ? { password: form.password } : {}),
      show_received: form.showReceived,
    });
  };
  return (
    <Card aria-labelledby="request-create-title">
      <CardHeader
        titleId="request-create-title"
        title={t("fileRequests.createTitle")}
        headingLevel={3}
        description={t("fileRequests.createHint")}
      />
      <form onSubmit={submit} className="grid gap-4 p-5 sm:grid-cols-2">
        <TextField
          label={t("fileRequests.title")}
          value={form.title}
          required
          maxLength={200}
          onChange={(e) => set({ title: e.target.value })}
        />
        <TextField
          label={t("fileRequests.message")}
          value={form.message}
          maxLength={4000}
          onChange={(e) => set({ message: e.target.value })}
        />
        <SelectField
          label={t("fileRequests.target")}
          value={form.kind}
          onChange={(e) => set({ kind: e.target.value as "share" | "folder" })}
        >
          <option value="share">{t("fileRequests.targetShare")}</option>
          <option value="folder">{t("fileRequests.targetFolder")}</option>
        </SelectField>
        {form.kind === "folder" ? (
          <TextField
            label={t("fileRequests.folder")}
            value={form.folder}
            placeholder="/mount/inbox"
            onChange={(e) => set({ folder: e.target.value })}
          />
        ) : (
          <div />
        )}
        <TextField
          label={t("fileRequests.maxFiles")}
          type="number"
          min={1}
          value={form.maxFiles}
          onChange={(e) => set({ maxFiles: e.target.value })}
        />
        <TextField
          label={t("fileRequests.maxFileMb")}
          type="number"
          min={1}
          value={form.maxFileMb}
          onChange={(e) => set({ maxFileMb: e.target.value })}
        />
        <TextField
          label={t("fileRequests.types")}
          hint={t("fileRequests.typesHint")}
          value={form.types}
          onChange={(e) => set({ types: e.target.value })}
        />
        <TextField
          label={t("fileRequests.expiresIn")}
          type="number"
          min={1}
          value={form.expiresIn}
          onChange={(e) => set({ expiresIn: e.target.value })}
        />
        <TextField
          label={t("fileRequests.password")}
          type="password"
          autoComplete="new-password"
          value={form.password}
          onChange={(e) => set({ password: e.target.value })}
        />
        <CheckboxField
          label={t("fileRequests.showReceived")}
          checked={form.showReceived}
          onCheckedChange={(v) => set({ showReceived: v })}
          className="self-center"
        />
        <div className="sm:col-span-2">
          <Button type="submit" disabled={create.isPending || !form.title.trim()}>
            {t("fileRequests.create")}
          </Button>
        </div>
      </form>
    </Card>
  );
}

function RequestRow({
  request,
  expanded,
  onToggle,
}: {
  request: FileRequest;
  expanded: boolean;
  onToggle: () => void;
}) {
  const { t, i18n } = useTranslation();
  const errorText = useErrorText();
  const qc = useQueryClient();
  const refresh = () => void qc.invalidateQueries({ queryKey: LIST_KEY });
  const update = useMutation({
    mutationFn: (status: "open" | "closed") => requestsApi.update(request.id, { status }),
    onSuccess: refresh,
    onError: (error) => toast(errorText(error), "error"),
  });
  const remove = useMutation({
    mutationFn: () => requestsApi.remove(request.id),
    onSuccess: refresh,
    onError: (error) => toast(errorText(error), "error"),
  });
  const link = `${window.location.origin}${request.url}`;
  return (
    <li className="space-y-2 px-5 py-4" data-request={request.slug}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="min-w-0">
          <p className="font-medium break-words">{request.title}</p>
          <p className="text-sm text-slate-500 dark:text-slate-400">
            <Link to={request.url} className="underline">
              {request.url}
            </Link>{" "}
            · {t("fileRequests.received", { count: request.reserved_files })}
            {request.max_files !== null ? ` / ${request.max_files}` : ""}
          </p>
        </div>
        <Badge tone={request.state === "open" ? "success" : "neutral"}>
          {t(`fileRequests.state.${request.state}`)}
        </Badge>
      </div>
      <div className="flex flex-wrap gap-2">
        <CopyLinkButton link={link} label={t("fileRequests.copyLink", { title: request.title })} />
        <Button size="sm" variant="outline" onClick={onToggle} aria-expanded={expanded}>
          {t("fileRequests.showUploads")}
        </Button>
        <Button
          size="sm"
          variant="outline"
          disabled={update.isPending}
          onClick={() => update.mutate(request.status === "open" ? "closed" : "open")}
        >
          {request.status === "open" ? t("fileRequests.close") : t("fileRequests.reopen")}
        </Button>
        <Button
          size="sm"
          variant="dangerGhost"
          disabled={remove.isPending}
          onClick={() => {
            if (window.confirm(t("fileRequests.confirmDelete"))) remove.mutate();
          }}
        >
          {t("fileRequests.delete")}
        </Button>
      </div>
      {expanded ? <RequestUploads id={request.id} language={i18n.language} /> : null}
    </li>
  );
}

function RequestUploads({ id, language }: { id: string; language: string }) {
  const { t } = useTranslation();
  const detail = useQuery({ queryKey: [...LIST_KEY, id], queryFn: () => requestsApi.detail(id) });
  const uploads = detail.data?.uploads ?? [];
  if (detail.isPending) return null;
  if (uploads.length === 0)
    return (
      <p className="flex items-center gap-2 text-sm text-slate-500 dark:text-slate-400">
        <Inbox className="h-4 w-4" aria-hidden />
        {t("fileRequests.noUploads")}
      </p>
    );
  return (
    <ul
      className="space-y-2 rounded-xl bg-slate-50 p-3 text-sm dark:bg-slate-950"
      data-testid="request-uploads"
    >
      {uploads.map((upload) => (
        <li key={upload.id} className="space-y-0.5">
          <div className="flex flex-wrap justify-between gap-2">
            {upload.file_slug ? (
              <Link to={`/file/${upload.file_slug}`} className="font-medium break-all underline">
                {upload.filename}
              </Link>
            ) : (
              <span className="font-medium break-all">{upload.path ?? upload.filename}</span>
            )}
            <span className="text-slate-500 dark:text-slate-400">
              {formatBytes(upload.size)} · {formatDateTime(upload.created_at, language)}
              {upload.status === "pending" ? ` · ${t("fileRequests.pending")}` : ""}
            </span>
          </div>
          {upload.uploader_name || upload.note ? (
            <p className="text-slate-600 dark:text-slate-300">
              {upload.uploader_name ? <strong>{upload.uploader_name}</strong> : null}
              {upload.uploader_name && upload.note ? ": " : null}
              {upload.note}
            </p>
          ) : null}
        </li>
      ))}
    </ul>
  );
}
