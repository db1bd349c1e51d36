import { PASTES_DEFAULT_LIMIT } from "@clipshare/shared";
import {
  ChevronLeft,
  ChevronRight,
  Eraser,
  Eye,
  FileText,
  LockKeyhole,
  Pencil,
  Plus,
  RefreshCw,
  Search,
  Trash2,
} from "lucide-react";
import { type ReactNode, useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { Alert } from "../../../components/ui/alert";
import { Badge } from "../../../components/ui/badge";
import { Button, buttonClasses } from "../../../components/ui/button";
import { Card, CardHeader } from "../../../components/ui/card";
import { Dialog } from "../../../components/ui/dialog";
import { Input, Select } from "../../../components/ui/form";
import { Spinner } from "../../../components/ui/spinner";
import { toast } from "../../../components/ui/toast";
import { useCapabilities } from "../../../lib/auth-store";
import { formatDateTime } from "../../../lib/format";
import { useErrorText } from "../../../lib/use-error-text";
import type { PasteRow } from "../../pastes/api/pastes";
import { pasteLink } from "../../pastes/links";
import { useClearExpired, useDeletePastes, usePasteList, useUpdatePaste } from "../hooks/use-pastes";
import {
  creatorOf,
  effectiveSearch,
  expiredParam,
  pageRange,
  type StatusFilter,
  viewsText,
} from "../list-model";
import { PasteEditDialog } from "./paste-edit-dialog";
import { PastePreviewDialog } from "./paste-preview-dialog";
import { SelectCheckbox } from "./select-checkbox";

const PAGE_SIZES = [PASTES_DEFAULT_LIMIT, 20, 50];
const SEARCH_DELAY_MS = 300;

function useDebounced<T>(value: T, delayMs: number): T {
  const [current, setCurrent] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setCurrent(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return current;
}

/** Admin module "text management": every paste for the admin, a key's own for a key user. */
export function TextManagementModule() {
  const { t, i18n } = useTranslation();
  const caps = useCapabilities();
  const errorText = useErrorText();

  const [searchInput, setSearchInput] = useState("");
  const search = effectiveSearch(useDebounced(searchInput, SEARCH_DELAY_MS));
  const [status, setStatus] = useState<StatusFilter>("all");
  const [page, setPage] = useState(1);
  const [limit, setLimit] = useState(PASTES_DEFAULT_LIMIT);
  const query = useMemo(
    () => ({ page, limit, search, expired: expiredParam(status) }),
    [page, limit, search, status],
  );
  const list = usePasteList(query);
  const update = useUpdatePaste();
  const remove = useDeletePastes();
  const clear = useClearExpired();

  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [previewing, setPreviewing] = useState<PasteRow | null>(null);
  const [editing, setEditing] = useState<PasteRow | null>(null);
  const [deleting, setDeleting] = useState<PasteRow[] | null>(null);
  const [clearing, setClearing] = useState(false);
  const [dialogError, setDialogError] = useState<string | null>(null);

  // A new search, filter or page size starts on page 1 with nothing selected.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset when these inputs change
  useEffect(() => {
    setPage(1);
  }, [search, status, limit]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: selection is per page
  useEffect(() => {
    setSelected(new Set());
  }, [page, search, status, limit]);

  const rows = list.data?.items ?? [];
  const pagination = list.data?.pagination;
  const totalPages = pagination?.totalPages ?? 1;
  // The last page emptied by a deletion: step back.
  useEffect(() => {
    if (pagination && page > 1 && rows.length === 0 && page > pagination.totalPages) {
      setPage(pagination.totalPages);
    }
  }, [pagination, rows.length, page]);

  const selectedRows = rows.filter((r) => selected.has(r.id));
  const allSelected = rows.length > 0 && selectedRows.length === rows.length;
  const headerChecked = allSelected ? true : selectedRows.length > 0 ? "indeterminate" : false;

  const toggle = (id: string, on: boolean) =>
    setSelected((prev) => {
      const next = new Set(prev);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });

  const range = pageRange(page, limit, rows.length);

  const stateBadge = (row: PasteRow) =>
    row.state === "expired" ? (
      <Badge tone="danger">{t("pastes.state.expired")}</Badge>
    ) : row.state === "view_limit" ? (
      <Badge tone="warning">{t("pastes.state.viewLimit")}</Badge>
    ) : null;

  const expiryText = (row: PasteRow) =>
    row.expires_at ? formatDateTime(row.expires_at, i18n.language) : t("pastes.never");

  const creator = (row: PasteRow): ReactNode => {
    const c = creatorOf(row);
    if (c.kind === "admin") return t("textManagement.creatorAdmin");
    return (
      <span className="inline-flex items-center gap-1.5">
        <Badge tone="accent">{t("textManagement.apiKey")}</Badge>
        <span className="truncate">{c.name ?? t("textManagement.deletedKey")}</span>
      </span>
    );
  };

  const slugCell = (row: PasteRow) => (
    <div className="min-w-0">
      <a
        href={pasteLink(row.slug)}
        target="_blank"
        rel="noopener"
        className="font-mono text-sm font-medium text-indigo-600 hover:underline dark:text-indigo-400"
      >
        {row.slug}
      </a>
      {row.has_password ? (
        <LockKeyhole
          className="ml-1.5 inline h-3.5 w-3.5 text-amber-600 dark:text-amber-400"
          aria-label={t("pastes.passwordProtected")}
          role="img"
        />
      ) : null}
      {row.remark ? (
        <p className="truncate text-xs text-slate-500 dark:text-slate-400">{row.remark}</p>
      ) : null}
    </div>
  );

  const actions = (row: PasteRow) => (
    <div className="flex justify-end gap-1">
      <Button
        variant="ghost"
        size="icon"
        aria-label={t("textManagement.previewNamed", { slug: row.slug })}
        title={t("textManagement.preview")}
        onClick={() => setPreviewing(row)}
      >
        <Eye className="h-4 w-4" aria-hidden />
      </Button>
      <Button
        variant="ghost"
        size="icon"
        aria-label={t("textManagement.editNamed", { slug: row.slug })}
        title={t("common.edit")}
        onClick={() => setEditing(row)}
      >
        <Pencil className="h-4 w-4" aria-hidden />
      </Button>
      <Button
        variant="ghost"
        size="icon"
        className="text-red-600 hover:bg-red-50 dark:text-red-400 dark:hover:bg-red-950/40"
        aria-label={t("textManagement.deleteNamed", { slug: row.slug })}
        title={t("common.delete")}
        onClick={() => {
          setDialogError(null);
          setDeleting([row]);
        }}
      >
        <Trash2 className="h-4 w-4" aria-hidden />
      </Button>
    </div>
  );

  async function confirmDelete() {
    if (!deleting) return;
    try {
      const count = await remove.mutateAsync(deleting.map((r) => r.id));
      toast(t("textManagement.deleted", { count }), "success");
      setSelected(new Set());
      setDeleting(null);
    } catch (err) {
      setDialogError(errorText(err));
    }
  }

  async function confirmClear() {
    try {
      const count = await clear.mutateAsync(caps.isAdmin);
      toast(t("textManagement.cleared", { count }), "success");
      setClearing(false);
    } catch (err) {
      setDialogError(errorText(err));
    }
  }

  return (
    <Card aria-labelledby="text-management-title">
      <CardHeader
        titleId="text-management-title"
        title={t("admin.modules.textManagement")}
        description={caps.isAdmin ? t("textManagement.descriptionAdmin") : t("textManagement.descriptionKey")}
        actions={
          <>
            <Button
              variant="outline"
              size="icon"
              aria-label={t("common.refresh")}
              title={t("common.refresh")}
              onClick={() => void list.refetch()}
            >
              <RefreshCw className={list.isFetching ? "h-4 w-4 animate-spin" : "h-4 w-4"} aria-hidden />
            </Button>
            <Button
              variant="outline"
              onClick={() => {
                setDialogError(null);
                setClearing(true);
              }}
            >
              <Eraser className="h-4 w-4" aria-hidden />
              {t("textManagement.clearExpired")}
            </Button>
            <Link to="/" className={buttonClasses("primary")}>
              <Plus className="h-4 w-4" aria-hidden />
              {t("textManagement.newPaste")}
            </Link>
          </>
        }
      />

      <div className="space-y-4 p-5">
        <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
          <div className="relative min-w-0 flex-1">
            <Search
              className="pointer-events-none absolute top-1/2 left-3 h-4 w-4 -translate-y-1/2 text-slate-400"
              aria-hidden
            />
            <Input
              type="search"
              aria-label={t("textManagement.search")}
              placeholder={t("textManagement.searchPlaceholder")}
              value={searchInput}
              className="pl-9"
              onChange={(e) => setSearchInput(e.target.value)}
            />
          </div>
          <Select
            aria-label={t("textManagement.statusFilter")}
            value={status}
            className="sm:w-44"
            onChange={(e) => setStatus(e.target.value as StatusFilter)}
          >
            <option value="all">{t("textManagement.status.all")}</option>
            <option value="active">{t("textManagement.status.active")}</option>
            <option value="expired">{t("textManagement.status.expired")}</option>
          </Select>
        </div>
        {searchInput.trim().length === 1 ? (
          <p className="text-xs text-slate-500 dark:text-slate-400">{t("textManagement.searchTooShort")}</p>
        ) : null}

        {selectedRows.length > 0 ? (
          <div className="flex flex-wrap items-center justify-between gap-2 rounded-xl bg-indigo-50 px-4 py-2 text-sm dark:bg-indigo-950/40">
            <span>{t("textManagement.selectedCount", { count: selectedRows.length })}</span>
            <span className="flex gap-2">
              <Button variant="ghost" size="sm" onClick={() => setSelected(new Set())}>
                {t("textManagement.clearSelection")}
              </Button>
              <Button
                variant="danger"
                size="sm"
                onClick={() => {
                  setDialogError(null);
                  setDeleting(selectedRows);
                }}
              >
                <Trash2 className="h-4 w-4" aria-hidden />
                {t("textManagement.deleteSelected", { count: selectedRows.length })}
              </Button>
            </span>
          </div>
        ) : null}

        {list.isPending ? (
          <Spinner />
        ) : list.isError ? (
          <Alert>{errorText(list.error)}</Alert>
        ) : rows.length === 0 ? (
          <div className="flex flex-col items-center py-10 text-center text-sm text-slate-500 dark:text-slate-400">
            <FileText className="mb-2 h-8 w-8" aria-hidden />
            {search || status !== "all" ? t("textManagement.noMatches") : t("textManagement.empty")}
          </div>
        ) : (
          <>
            <div className="hidden overflow-x-auto md:block">
              <table className="w-full text-left text-sm">
                <caption className="sr-only">{t("textManagement.tableCaption")}</caption>
                <thead className="text-xs text-slate-500 uppercase dark:text-slate-400">
                  <tr className="border-b border-slate-200 dark:border-slate-800">
                    <th scope="col" className="w-8 py-2 pr-3">
                      <SelectCheckbox
                        label={t("textManagement.selectPage")}
                        checked={headerChecked}
                        onCheckedChange={(on) => setSelected(on ? new Set(rows.map((r) => r.id)) : new Set())}
                      />
                    </th>
                    <th scope="col" className="py-2 pr-3 font-medium">
                      {t("textManagement.columns.link")}
                    </th>
                    <th scope="col" className="py-2 pr-3 font-medium">
                      {t("textManagement.columns.content")}
                    </th>
                    <th scope="col" className="py-2 pr-3 font-medium">
                      {t("textManagement.columns.views")}
                    </th>
                    <th scope="col" className="py-2 pr-3 font-medium">
                      {t("textManagement.columns.expires")}
                    </th>
                    <th scope="col" className="py-2 pr-3 font-medium">
                      {t("textManagement.columns.creator")}
                    </th>
                    <th scope="col" className="py-2 pr-3 font-medium">
                      {t("textManagement.columns.created")}
                    </th>
                    <th scope="col" className="py-2 text-right font-medium">
                      <span className="sr-only">{t("common.actions")}</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {rows.map((row) => (
                    <tr
                      key={row.id}
                      data-slug={row.slug}
                      className="border-b border-slate-100 align-top last:border-0 dark:border-slate-800/70"
                    >
                      <td className="py-3 pr-3">
                        <SelectCheckbox
                          label={t("textManagement.selectNamed", { slug: row.slug })}
                          checked={selected.has(row.id)}
                          onCheckedChange={(on) => toggle(row.id, on)}
                          className="mt-0.5"
                        />
                      </td>
                      <td className="max-w-56 py-3 pr-3">{slugCell(row)}</td>
                      <td className="max-w-72 py-3 pr-3">
                        <p className="line-clamp-2 text-xs break-words text-slate-600 dark:text-slate-300">
                          {row.content_preview}
                        </p>
                      </td>
                      <td className="py-3 pr-3 whitespace-nowrap tabular-nums">{viewsText(row)}</td>
                      <td className="py-3 pr-3 whitespace-nowrap text-slate-600 dark:text-slate-300">
                        <span className="flex flex-col items-start gap-1">
                          {expiryText(row)}
                          {stateBadge(row)}
                        </span>
                      </td>
                      <td className="max-w-40 py-3 pr-3 text-slate-600 dark:text-slate-300">
                        {creator(row)}
                      </td>
                      <td className="py-3 pr-3 whitespace-nowrap text-slate-600 dark:text-slate-300">
                        {formatDateTime(row.created_at, i18n.language)}
                      </td>
                      <td className="py-2">{actions(row)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>

            <ul className="space-y-3 md:hidden" aria-label={t("textManagement.tableCaption")}>
              {rows.map((row) => (
                <li
                  key={row.id}
                  data-slug={row.slug}
                  className="rounded-xl border border-slate-200 p-4 dark:border-slate-800"
                >
                  <div className="flex items-start gap-3">
                    <SelectCheckbox
                      label={t("textManagement.selectNamed", { slug: row.slug })}
                      checked={selected.has(row.id)}
                      onCheckedChange={(on) => toggle(row.id, on)}
                      className="mt-1"
                    />
                    <div className="min-w-0 flex-1">{slugCell(row)}</div>
                  </div>
                  <p className="mt-2 line-clamp-3 text-xs break-words text-slate-600 dark:text-slate-300">
                    {row.content_preview}
                  </p>
                  <dl className="mt-3 grid grid-cols-2 gap-x-3 gap-y-1 text-xs text-slate-600 dark:text-slate-300">
                    <dt className="text-slate-500">{t("textManagement.columns.views")}</dt>
                    <dd className="tabular-nums">{viewsText(row)}</dd>
                    <dt className="text-slate-500">{t("textManagement.columns.expires")}</dt>
                    <dd className="flex flex-wrap items-center gap-1">
                      {expiryText(row)}
                      {stateBadge(row)}
                    </dd>
                    <dt className="text-slate-500">{t("textManagement.columns.creator")}</dt>
                    <dd className="min-w-0">{creator(row)}</dd>
                    <dt className="text-slate-500">{t("textManagement.columns.created")}</dt>
                    <dd>{formatDateTime(row.created_at, i18n.language)}</dd>
                  </dl>
                  <div className="mt-2 border-t border-slate-100 pt-2 dark:border-slate-800">
                    {actions(row)}
                  </div>
                </li>
              ))}
            </ul>
          </>
        )}

        {pagination && pagination.total > 0 ? (
          <nav
            aria-label={t("textManagement.pagination")}
            className="flex flex-wrap items-center justify-between gap-3 border-t border-slate-200 pt-4 text-sm dark:border-slate-800"
          >
            <span className="text-slate-600 dark:text-slate-400">
              {t("textManagement.range", { from: range.from, to: range.to, total: pagination.total })}
            </span>
            <div className="flex items-center gap-2">
              <div className="w-28">
                <Select
                  aria-label={t("textManagement.pageSize")}
                  value={String(limit)}
                  className="h-8"
                  onChange={(e) => setLimit(Number(e.target.value))}
                >
                  {PAGE_SIZES.map((size) => (
                    <option key={size} value={size}>
                      {t("textManagement.perPage", { count: size })}
                    </option>
                  ))}
                </Select>
              </div>
              <Button
                variant="outline"
                size="sm"
                disabled={page <= 1}
                onClick={() => setPage((p) => Math.max(1, p - 1))}
                aria-label={t("textManagement.previousPage")}
              >
                <ChevronLeft className="h-4 w-4" aria-hidden />
              </Button>
              <span className="whitespace-nowrap tabular-nums" aria-live="polite">
                {t("textManagement.pageOf", { page, total: totalPages })}
              </span>
              <Button
                variant="outline"
                size="sm"
                disabled={page >= totalPages}
                onClick={() => setPage((p) => Math.min(totalPages, p + 1))}
                aria-label={t("textManagement.nextPage")}
              >
                <ChevronRight className="h-4 w-4" aria-hidden />
              </Button>
            </div>
          </nav>
        ) : null}
      </div>

      <PastePreviewDialog row={previewing} onClose={() => setPreviewing(null)} />

      <PasteEditDialog
        row={editing}
        onClose={() => setEditing(null)}
        onSave={async (id, body) => {
          if (Object.keys(body).length > 0) await update.mutateAsync({ id, body });
          setEditing(null);
          toast(t("textManagement.updated"), "success");
        }}
      />

      <Dialog
        role="alertdialog"
        open={deleting !== null}
        onOpenChange={(open) => !open && !remove.isPending && setDeleting(null)}
        title={
          deleting && deleting.length === 1
            ? t("textManagement.deleteOneTitle", { slug: deleting[0]!.slug })
            : t("textManagement.deleteManyTitle", { count: deleting?.length ?? 0 })
        }
        description={t("textManagement.deleteDescription")}
        footer={
          <>
            <Button variant="outline" onClick={() => setDeleting(null)} disabled={remove.isPending}>
              {t("common.cancel")}
            </Button>
            <Button variant="danger" disabled={remove.isPending} onClick={() => void confirmDelete()}>
              {t("common.delete")}
            </Button>
          </>
        }
      >
        {dialogError ? (
          <Alert>{dialogError}</Alert>
        ) : (
          <ul className="max-h-40 list-inside list-disc overflow-y-auto font-mono text-sm">
            {deleting?.map((row) => (
              <li key={row.id}>{row.slug}</li>
            ))}
          </ul>
        )}
      </Dialog>

      <Dialog
        role="alertdialog"
        open={clearing}
        onOpenChange={(open) => !open && !clear.isPending && setClearing(false)}
        title={t("textManagement.clearTitle")}
        description={
          caps.isAdmin ? t("textManagement.clearDescriptionAdmin") : t("textManagement.clearDescriptionKey")
        }
        footer={
          <>
            <Button variant="outline" onClick={() => setClearing(false)} disabled={clear.isPending}>
              {t("common.cancel")}
            </Button>
            <Button variant="danger" disabled={clear.isPending} onClick={() => void confirmClear()}>
              {t("textManagement.clearConfirm")}
            </Button>
          </>
        }
      >
        {dialogError ? (
          <Alert>{dialogError}</Alert>
        ) : (
          <p className="text-sm">{t("textManagement.clearBody")}</p>
        )}
      </Dialog>
    </Card>
  );
}
