import type { FileRequest } from "@clipshare/shared";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { BellRing, Inbox, Pencil, Trash2 } from "lucide-react";
import { useState } from "react";
import { Link } from "react-router";
import { CopyLinkButton } from "../../../components/copy-link-button";
import { NotificationRuleDialog } from "../../../components/notifications/notification-rule-dialog";
import { Badge } from "../../../components/ui/badge";
import { Button } from "../../../components/ui/button";
import { toast } from "../../../components/ui/toast";
import { useTranslation } from "../../../i18n";
import { formatBytes } from "../../../lib/file-size";
import { formatDateTime } from "../../../lib/format";
import { useErrorText } from "../../../lib/use-error-text";
import { requestsApi } from "../api/request-target";
import { LIST_KEY } from "../request-form-model";

/** One request in the module's list: its link and state, close or reopen, edit, delete, what arrived. */
export function RequestRow({
  request,
  expanded,
  onToggle,
  onEdit,
}: {
  request: FileRequest;
  expanded: boolean;
  onToggle: () => void;
  onEdit: () => void;
}) {
  const { t, i18n } = useTranslation();
  const [notifying, setNotifying] = useState(false);
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
        <Button size="sm" variant="outline" onClick={onEdit}>
          <Pencil className="h-4 w-4" aria-hidden />
          {t("common.edit")}
        </Button>
        <Button size="sm" variant="outline" onClick={() => setNotifying(true)}>
          <BellRing className="h-4 w-4" aria-hidden />
          {t("notifications.rule.open")}
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
      {notifying ? (
        <NotificationRuleDialog
          subject={{ kind: "request", id: request.id, name: request.title }}
          onClose={() => setNotifying(false)}
        />
      ) : null}
    </li>
  );
}

function RequestUploads({ id, language }: { id: string; language: string }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const qc = useQueryClient();
  const detail = useQuery({ queryKey: [...LIST_KEY, id], queryFn: () => requestsApi.detail(id) });
  // Deleting a received file frees its slot: another uploader may send one.
  const removeFile = useMutation({
    mutationFn: (uploadId: string) => requestsApi.removeReceived(id, uploadId),
    onSuccess: () => {
      toast(t("fileRequests.fileDeleted"), "success");
      void qc.invalidateQueries({ queryKey: LIST_KEY });
    },
    onError: (error) => toast(errorText(error), "error"),
  });
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
            <span className="flex items-center gap-1 text-slate-500 dark:text-slate-400">
              {formatBytes(upload.size)} · {formatDateTime(upload.created_at, language)}
              {upload.status === "pending" ? ` · ${t("fileRequests.pending")}` : ""}
              {upload.status === "received" ? (
                <Button
                  size="icon"
                  variant="dangerGhost"
                  aria-label={t("fileRequests.deleteFile", { name: upload.filename })}
                  disabled={removeFile.isPending}
                  onClick={() => {
                    if (window.confirm(t("fileRequests.confirmDeleteFile", { name: upload.filename })))
                      removeFile.mutate(upload.id);
                  }}
                >
                  <Trash2 className="h-4 w-4" aria-hidden />
                </Button>
              ) : null}
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
