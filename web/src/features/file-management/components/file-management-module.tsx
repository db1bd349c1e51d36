import { FILES_DEFAULT_LIMIT } from "@clipshare/shared";
import {
  ChevronLeft,
  ChevronRight,
  Copy,
  Eye,
  Files,
  Lock,
  Pencil,
  RefreshCw,
  Search,
  Trash2,
} from "lucide-react";
import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { Alert } from "../../../components/ui/alert";
import { Badge } from "../../../components/ui/badge";
import { Button, buttonClasses } from "../../../components/ui/button";
import { Card, CardHeader } from "../../../components/ui/card";
import { Input, Select } from "../../../components/ui/form";
import { Spinner } from "../../../components/ui/spinner";
import { toast } from "../../../components/ui/toast";
import { useCapabilities } from "../../../lib/auth-store";
import { copyText } from "../../../lib/clipboard";
import { formatBytes } from "../../../lib/file-size";
import { formatDateTime } from "../../../lib/format";
import { fileShareUrl } from "../../../lib/share-links";
import { useStorageName } from "../../../lib/storage-name";
import { useErrorText } from "../../../lib/use-error-text";
import type { DeleteMode, FileShare, StorageUsage } from "../api/file-shares";
import { effectiveSearch, fileShareUpdateBody, pageRange } from "../file-share-form-model";
import {
  useDeleteFileShares,
  useFileShares,
  useStorageUsage,
  useUpdateFileShare,
} from "../hooks/use-file-shares";
import { DeleteFilesDialog } from "./delete-files-dialog";
import { FileEditDialog } from "./file-edit-dialog";
import { FilePreviewDialog } from "./file-preview-dialog";

function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

function StatusBadges({ file }: { file: FileShare }) {
  const { t, i18n } = useTranslation();
  return (
    <span className="flex flex-wrap gap-1">
      {file.upload_state ? (
        <span
          title={
            file.upload_state === "uploading"
              ? t("uploadReservation.uploadingHint", {
                  time: formatDateTime(file.upload_expires_at ?? file.created_at, i18n.language),
                })
              : t("uploadReservation.incompleteHint")
          }
        >
          <Badge tone="warning">{t(`uploadReservation.${file.upload_state}`)}</Badge>
        </span>
      ) : null}
      {file.has_password ? (
        <Badge tone="accent">
          <Lock className="mr-1 h-3 w-3" aria-hidden />
          {t("fileManagement.badges.password")}
        </Badge>
      ) : null}
      {file.state === "expired" ? <Badge tone="danger">{t("fileManagement.badges.expired")}</Badge> : null}
      {file.state === "view_limit" ? <Badge tone="danger">{t("fileManagement.badges.usedUp")}</Badge> : null}
      {!file.use_proxy ? <Badge tone="warning">{t("fileManagement.badges.direct")}</Badge> : null}
    </span>
  );
}

function UsageStrip({ configs }: { configs: StorageUsage[] }) {
  const { t } = useTranslation();
  const storageName = useStorageName();
  if (configs.length === 0) return null;
  return (
    <ul className="grid gap-3 sm:grid-cols-2 xl:grid-cols-3" aria-label={t("fileManagement.usage.title")}>
      {configs.map((config) => {
        const usage = config.usage ?? { file_count: 0, total_size: 0 };
        const quota = config.total_storage_bytes;
        const percent = quota ? Math.min(100, Math.round((usage.total_size / quota) * 100)) : null;
        return (
          <li
            key={config.id}
            aria-label={storageName(config.name)}
            className="rounded-xl border border-slate-200 px-3 py-2.5 text-sm dark:border-slate-800"
          >
            <p className="truncate font-medium">
              {storageName(config.name)}
              {config.is_default ? (
                <span className="ml-1.5 text-xs font-normal text-slate-500 dark:text-slate-400">
                  ({t("storageConfig.default")})
                </span>
              ) : null}
            </p>
            <p className="text-xs text-slate-600 dark:text-slate-300">
              {t("storageConfig.usage.summary", {
                count: usage.file_count,
                size: formatBytes(usage.total_size),
              })}
              {quota ? ` · ${t("storageConfig.usage.ofQuota", { quota: formatBytes(quota) })}` : ""}
            </p>
            {percent !== null ? (
              <div className="mt-1.5 h-1 w-full overflow-hidden rounded-full bg-slate-200 dark:bg-slate-800">
                <div className="h-full bg-indigo-500" style={{ width: `${percent}%` }} />
              </div>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}

/** Admin (and FILE_SHARE key) module "file management": search, preview, edit, batch delete, usage. */
export function FileManagementModule() {
  const { t, i18n } = useTranslation();
  const storageName = useStorageName();
  const errorText = useErrorText();
  const caps = useCapabilities();
  const [searchText, setSearchText] = useState("");
  const [storageId, setStorageId] = useState("");
  const [offset, setOffset] = useState(0);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [previewing, setPreviewing] = useState<FileShare | null>(null);
  const [editing, setEditing] = useState<FileShare | null>(null);
  const [deleting, setDeleting] = useState<FileShare[] | null>(null);
  const [deleteError, setDeleteError] = useState<string | null>(null);

  const search = effectiveSearch(useDebounced(searchText, 300));
  const query = useMemo(
    () => ({
      limit: FILES_DEFAULT_LIMIT,
      offset,
      ...(search ? { search } : {}),
      ...(storageId ? { storage_config_id: storageId } : {}),
    }),
    [offset, search, storageId],
  );
  const files = useFileShares(query);
  const usage = useStorageUsage();
  const update = useUpdateFileShare();
  const remove = useDeleteFileShares();

  // A new filter starts at the first page with nothing selected.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset when the filter changes
  useEffect(() => {
    setOffset(0);
    setSelected(new Set());
  }, [search, storageId]);

  const rows = files.data?.files ?? [];
  const total = files.data?.pagination.total ?? 0;
  const range = pageRange(offset, rows.length, total);
  const allSelected = rows.length > 0 && rows.every((r) => selected.has(r.id));
  const toggle = (id: string, on: boolean) =>
    setSelected((s) => {
      const next = new Set(s);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });

  const copyLink = async (file: FileShare) => {
    const ok = await copyText(fileShareUrl(file.slug));
    toast(ok ? t("fileShare.linkCopied") : t("common.copyFailed"), ok ? "success" : "error");
  };

  const creator = (file: FileShare) =>
    file.created_by?.startsWith("apikey:") || file.key_name
      ? t("fileManagement.byKey", { name: file.key_name ?? file.created_by?.replace(/^apikey:/, "") ?? "" })
      : t("fileManagement.byAdmin");
  const viewsText = (file: FileShare) =>
    file.max_views ? `${file.views} / ${file.max_views}` : `${file.views} / ∞`;
  const expiryText = (file: FileShare) =>
    file.expires_at ? formatDateTime(file.expires_at, i18n.language) : t("fileView.meta.never");

  // A reserved upload that never finished has nothing to preview or share yet; delete releases it.
  const actions = (file: FileShare) => (
    <div className="flex justify-end gap-0.5">
      <Button
        variant="ghost"
        size="icon"
        aria-label={t("fileManagement.previewNamed", { name: file.filename })}
        title={t("fileManagement.preview")}
        disabled={Boolean(file.upload_state)}
        onClick={() => setPreviewing(file)}
      >
        <Eye className="h-4 w-4" aria-hidden />
      </Button>
      <Button
        variant="ghost"
        size="icon"
        aria-label={t("upload.copyLinkOf", { name: file.filename })}
        title={t("fileShare.copyLink")}
        disabled={Boolean(file.upload_state)}
        onClick={() => void copyLink(file)}
      >
        <Copy className="h-4 w-4" aria-hidden />
      </Button>
      <Button
        variant="ghost"
        size="icon"
        aria-label={t("fileManagement.editNamed", { name: file.filename })}
        title={t("common.edit")}
        onClick={() => setEditing(file)}
      >
        <Pencil className="h-4 w-4" aria-hidden />
      </Button>
      <Button
        variant="ghost"
        size="icon"
        className="text-red-600 hover:bg-red-50 dark:text-red-400 dark:hover:bg-red-950/40"
        aria-label={t("fileManagement.deleteNamed", { name: file.filename })}
        title={t("common.delete")}
        onClick={() => {
          setDeleteError(null);
          setDeleting([file]);
        }}
      >
        <Trash2 className="h-4 w-4" aria-hidden />
      </Button>
    </div>
  );

  const checkbox = (file: FileShare) => (
    <input
      type="checkbox"
      className="h-4 w-4 accent-indigo-600"
      aria-label={t("fileManagement.selectNamed", { name: file.filename })}
      checked={selected.has(file.id)}
      onChange={(e) => toggle(file.id, e.target.checked)}
    />
  );

  return (
    <Card aria-labelledby="file-management-title">
      <CardHeader
        titleId="file-management-title"
        title={t("admin.modules.fileManagement")}
        description={caps.isAdmin ? t("fileManagement.description") : t("fileManagement.descriptionKey")}
        actions={
          <>
            <Button
              variant="outline"
              size="icon"
              aria-label={t("common.refresh")}
              title={t("common.refresh")}
              onClick={() => {
                void files.refetch();
                void usage.refetch();
              }}
            >
              <RefreshCw className={files.isFetching ? "h-4 w-4 animate-spin" : "h-4 w-4"} aria-hidden />
            </Button>
            <Link to="/upload" className={buttonClasses("primary")}>
              {t("fileManagement.upload")}
            </Link>
          </>
        }
      />
      <div className="space-y-5 p-5">
        <section aria-labelledby="file-usage-title" className="space-y-2">
          <h3 id="file-usage-title" className="text-sm font-medium text-slate-700 dark:text-slate-200">
            {t("fileManagement.usage.title")}
          </h3>
          {usage.isError ? (
            <Alert>{errorText(usage.error)}</Alert>
          ) : (
            <UsageStrip configs={usage.data ?? []} />
          )}
        </section>

        <div className="flex flex-wrap items-center gap-2">
          <div className="relative min-w-0 flex-1 basis-56">
            <Search
              className="pointer-events-none absolute top-1/2 left-3 h-4 w-4 -translate-y-1/2 text-slate-400"
              aria-hidden
            />
            <Input
              type="search"
              aria-label={t("fileManagement.search")}
              placeholder={t("fileManagement.searchPlaceholder")}
              className="pl-9"
              value={searchText}
              onChange={(e) => setSearchText(e.target.value)}
            />
          </div>
          <div className="w-full sm:w-56">
            <Select
              aria-label={t("fileManagement.storageFilter")}
              value={storageId}
              onChange={(e) => setStorageId(e.target.value)}
            >
              <option value="">{t("fileManagement.allStorage")}</option>
              {(usage.data ?? []).map((config) => (
                <option key={config.id} value={config.id}>
                  {storageName(config.name)}
                </option>
              ))}
            </Select>
          </div>
          <Button
            variant="danger"
            disabled={selected.size === 0}
            onClick={() => {
              setDeleteError(null);
              setDeleting(rows.filter((r) => selected.has(r.id)));
            }}
          >
            <Trash2 className="h-4 w-4" aria-hidden />
            {t("fileManagement.deleteSelected", { count: selected.size })}
          </Button>
        </div>
        {searchText.trim().length === 1 ? (
          <p className="text-xs text-slate-500 dark:text-slate-400">{t("fileManagement.searchMin")}</p>
        ) : null}

        {files.isPending ? (
          <Spinner />
        ) : files.isError ? (
          <Alert>{errorText(files.error)}</Alert>
        ) : rows.length === 0 ? (
          <div className="flex flex-col items-center py-10 text-center text-sm text-slate-500 dark:text-slate-400">
            <Files className="mb-2 h-8 w-8" aria-hidden />
            {search || storageId ? t("fileManagement.noMatches") : t("fileManagement.empty")}
          </div>
        ) : (
          <>
            <div className="hidden overflow-x-auto md:block">
              <table className="w-full text-left text-sm">
                <caption className="sr-only">{t("fileManagement.tableCaption")}</caption>
                <thead className="text-xs text-slate-500 uppercase dark:text-slate-400">
                  <tr className="border-b border-slate-200 dark:border-slate-800">
                    <th scope="col" className="w-8 py-2 pr-2">
                      <input
                        type="checkbox"
                        className="h-4 w-4 accent-indigo-600"
                        aria-label={t("fileManagement.selectAll")}
                        checked={allSelected}
                        onChange={(e) =>
                          setSelected(e.target.checked ? new Set(rows.map((r) => r.id)) : new Set())
                        }
                      />
                    </th>
                    <th scope="col" className="py-2 pr-3 font-medium">
                      {t("fileManagement.columns.name")}
                    </th>
                    <th scope="col" className="py-2 pr-3 font-medium">
                      {t("fileManagement.columns.size")}
                    </th>
                    <th scope="col" className="py-2 pr-3 font-medium">
                      {t("fileManagement.columns.storage")}
                    </th>
                    <th scope="col" className="py-2 pr-3 font-medium">
                      {t("fileManagement.columns.views")}
                    </th>
                    <th scope="col" className="py-2 pr-3 font-medium">
                      {t("fileManagement.columns.expires")}
                    </th>
                    <th scope="col" className="py-2 pr-3 font-medium">
                      {t("fileManagement.columns.created")}
                    </th>
                    <th scope="col" className="py-2 text-right font-medium">
                      <span className="sr-only">{t("common.actions")}</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {rows.map((file) => (
                    <tr
                      key={file.id}
                      className="border-b border-slate-100 align-top last:border-0 dark:border-slate-800/70"
                    >
                      <td className="py-3 pr-2">{checkbox(file)}</td>
                      <th scope="row" className="max-w-72 py-3 pr-3 font-normal">
                        <Link
                          to={`/file/${encodeURIComponent(file.slug)}`}
                          className="block font-medium break-all text-slate-900 hover:text-indigo-600 dark:text-slate-100 dark:hover:text-indigo-400"
                        >
                          {file.filename}
                        </Link>
                        <span className="block font-mono text-xs text-slate-500 dark:text-slate-400">
                          /file/{file.slug}
                        </span>
                        {file.remark ? (
                          <span className="block text-xs break-words text-slate-600 dark:text-slate-300">
                            {file.remark}
                          </span>
                        ) : null}
                        <span className="mt-1 block">
                          <StatusBadges file={file} />
                        </span>
                      </th>
                      <td className="py-3 pr-3 whitespace-nowrap">{formatBytes(file.size)}</td>
                      <td className="py-3 pr-3">
                        <span className="block">
                          {file.storage_config_name ? storageName(file.storage_config_name) : "—"}
                        </span>
                        {caps.isAdmin ? (
                          <span className="block text-xs text-slate-500 dark:text-slate-400">
                            {creator(file)}
                          </span>
                        ) : null}
                      </td>
                      <td className="py-3 pr-3 whitespace-nowrap">{viewsText(file)}</td>
                      <td className="py-3 pr-3 whitespace-nowrap text-slate-600 dark:text-slate-300">
                        {expiryText(file)}
                      </td>
                      <td className="py-3 pr-3 whitespace-nowrap text-slate-600 dark:text-slate-300">
                        {formatDateTime(file.created_at, i18n.language)}
                      </td>
                      <td className="py-2">{actions(file)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>

            <ul className="space-y-3 md:hidden" aria-label={t("fileManagement.tableCaption")}>
              {rows.map((file) => (
                <li key={file.id} className="rounded-xl border border-slate-200 p-4 dark:border-slate-800">
                  <div className="flex items-start gap-3">
                    <div className="pt-0.5">{checkbox(file)}</div>
                    <div className="min-w-0 flex-1">
                      <Link
                        to={`/file/${encodeURIComponent(file.slug)}`}
                        className="block font-medium break-all text-slate-900 dark:text-slate-100"
                      >
                        {file.filename}
                      </Link>
                      <p className="text-xs text-slate-500">
                        {formatBytes(file.size)} ·{" "}
                        {file.storage_config_name ? storageName(file.storage_config_name) : "—"}
                      </p>
                      <div className="mt-1.5">
                        <StatusBadges file={file} />
                      </div>
                      <p className="mt-1.5 text-xs text-slate-600 dark:text-slate-300">
                        {t("fileManagement.columns.views")}: {viewsText(file)} ·{" "}
                        {t("fileManagement.columns.expires")}: {expiryText(file)}
                      </p>
                    </div>
                  </div>
                  <div className="mt-2 border-t border-slate-100 pt-2 dark:border-slate-800">
                    {actions(file)}
                  </div>
                </li>
              ))}
            </ul>

            <div className="flex flex-wrap items-center justify-between gap-3 text-sm text-slate-600 dark:text-slate-300">
              <p aria-live="polite">{t("fileManagement.range", range)}</p>
              <div className="flex gap-2">
                <Button
                  variant="outline"
                  size="sm"
                  disabled={offset === 0 || files.isFetching}
                  onClick={() => setOffset(Math.max(0, offset - FILES_DEFAULT_LIMIT))}
                >
                  <ChevronLeft className="h-4 w-4" aria-hidden />
                  {t("fileManagement.previous")}
                </Button>
                <Button
                  variant="outline"
                  size="sm"
                  disabled={!files.data?.pagination.hasMore || files.isFetching}
                  onClick={() => setOffset(offset + FILES_DEFAULT_LIMIT)}
                >
                  {t("fileManagement.next")}
                  <ChevronRight className="h-4 w-4" aria-hidden />
                </Button>
              </div>
            </div>
          </>
        )}
      </div>

      <FilePreviewDialog file={previewing} onClose={() => setPreviewing(null)} />

      <FileEditDialog
        file={editing}
        onClose={() => setEditing(null)}
        onSubmit={async (values, initial) => {
          if (!editing) return;
          const body = fileShareUpdateBody(values, initial);
          if (Object.keys(body).length === 0) {
            setEditing(null);
            return;
          }
          try {
            await update.mutateAsync({ id: editing.id, body });
            setEditing(null);
            toast(t("fileManagement.updated"), "success");
          } catch (err) {
            throw new Error(errorText(err));
          }
        }}
      />

      <DeleteFilesDialog
        names={deleting ? deleting.map((f) => f.filename) : null}
        busy={remove.isPending}
        error={deleteError}
        onCancel={() => setDeleting(null)}
        onConfirm={async (mode: DeleteMode) => {
          if (!deleting) return;
          try {
            const result = await remove.mutateAsync({ ids: deleting.map((f) => f.id), mode });
            setSelected((s) => {
              const next = new Set(s);
              for (const f of deleting) next.delete(f.id);
              return next;
            });
            if (result.failed.length > 0) {
              setDeleteError(
                t("fileManagement.delete.partial", {
                  success: result.success,
                  failed: result.failed.length,
                  reason: result.failed[0]?.error ?? "",
                }),
              );
              return;
            }
            setDeleting(null);
            toast(t("fileManagement.delete.done", { count: result.success }), "success");
          } catch (err) {
            setDeleteError(errorText(err));
          }
        }}
      />
    </Card>
  );
}
