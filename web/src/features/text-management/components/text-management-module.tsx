import { PASTES_DEFAULT_LIMIT } from "@clipshare/shared";
import { Eraser, FileText, Plus } from "lucide-react";
import { useMemo, useState } from "react";
import { Link } from "react-router";
import { AccessLogDialog } from "../../../components/access-log/access-log-dialog";
import { OwnerFilter } from "../../../components/accounts/owner-filter";
import { ConfirmDialog } from "../../../components/list/confirm-dialog";
import { ListPager, ListRows } from "../../../components/list/list-frame";
import { ListToolbar } from "../../../components/list/list-toolbar";
import { useConfirm, useListState, usePageInRange } from "../../../components/list/use-list-state";
import { NotificationRuleDialog } from "../../../components/notifications/notification-rule-dialog";
import { Button, buttonClasses } from "../../../components/ui/button";
import { Card, CardHeader } from "../../../components/ui/card";
import { Select } from "../../../components/ui/form";
import { RefreshButton } from "../../../components/ui/refresh-button";
import { toast } from "../../../components/ui/toast";
import { useTranslation } from "../../../i18n";
import type { LoggedShare } from "../../../lib/access-log";
import { useCapabilities } from "../../../lib/auth-store";
import type { PasteRow } from "../../../lib/pastes/api";
import { useErrorText } from "../../../lib/use-error-text";
import { useClearExpired, useDeletePastes, usePasteList, useUpdatePaste } from "../hooks/use-pastes";
import { expiredParam, type StatusFilter } from "../list-model";
import { usePasteActions, usePasteColumns } from "./paste-columns";
import { PasteEditDialog } from "./paste-edit-dialog";
import { PastePreviewDialog } from "./paste-preview-dialog";

const PAGE_SIZES = [PASTES_DEFAULT_LIMIT, 20, 50];

/** Admin module "text management": every paste for the admin, a key's own for a key user. */
export function TextManagementModule() {
  const { t } = useTranslation();
  const caps = useCapabilities();
  const errorText = useErrorText();

  const list = useListState({
    filters: { status: "all" as StatusFilter, owner: "" },
    pageSize: PASTES_DEFAULT_LIMIT,
  });
  const { page, limit, search, filters, selection } = list;
  const query = useMemo(
    () => ({ page, limit, search, expired: expiredParam(filters.status), owner_id: filters.owner }),
    [page, limit, search, filters.status, filters.owner],
  );
  const pastes = usePasteList(query);
  const update = useUpdatePaste();
  const remove = useDeletePastes();
  const clear = useClearExpired();

  const [previewing, setPreviewing] = useState<PasteRow | null>(null);
  const [editing, setEditing] = useState<PasteRow | null>(null);
  const [logOf, setLogOf] = useState<LoggedShare | null>(null);
  const [notifyOf, setNotifyOf] = useState<{ kind: "paste"; id: string; name: string } | null>(null);
  const deleting = useConfirm<PasteRow[]>();
  const clearing = useConfirm<true>();

  const rows = pastes.data?.items ?? [];
  const pagination = pastes.data?.pagination;
  usePageInRange(list, rows.length, pagination?.total);

  const columns = usePasteColumns();
  const actions = usePasteActions({
    preview: setPreviewing,
    edit: setEditing,
    accessLog: (row) => setLogOf({ type: "paste", id: row.id, name: row.slug, slug: row.slug }),
    notifications: (row) => setNotifyOf({ kind: "paste", id: row.id, name: row.slug }),
    remove: (row) => deleting.ask([row]),
  });

  async function confirmDelete() {
    if (!deleting.target) return;
    try {
      const count = await remove.mutateAsync(deleting.target.map((r) => r.id));
      toast(t("textManagement.deleted", { count }), "success");
      selection.clear();
      deleting.close();
    } catch (err) {
      deleting.setError(errorText(err));
    }
  }

  async function confirmClear() {
    try {
      const count = await clear.mutateAsync(caps.isAdmin);
      toast(t("textManagement.cleared", { count }), "success");
      clearing.close();
    } catch (err) {
      clearing.setError(errorText(err));
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
            <RefreshButton busy={pastes.isFetching} onClick={() => void pastes.refetch()} />
            <Button variant="outline" onClick={() => clearing.ask(true)}>
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
        <ListToolbar
          list={list}
          searchLabel={t("textManagement.search")}
          searchPlaceholder={t("textManagement.searchPlaceholder")}
          onDeleteSelected={() => deleting.ask(rows.filter((r) => selection.has(r.id)))}
          filters={
            <>
              <Select
                aria-label={t("textManagement.statusFilter")}
                value={filters.status}
                className="sm:w-44"
                onChange={(e) => list.setFilter("status", e.target.value as StatusFilter)}
              >
                <option value="all">{t("textManagement.status.all")}</option>
                <option value="active">{t("textManagement.status.active")}</option>
                <option value="expired">{t("textManagement.status.expired")}</option>
              </Select>
              <OwnerFilter value={filters.owner} onChange={(owner) => list.setFilter("owner", owner)} />
            </>
          }
        />

        <ListRows
          query={pastes}
          icon={FileText}
          emptyText={list.filtered ? t("textManagement.noMatches") : t("textManagement.empty")}
          rows={rows}
          columns={columns}
          actions={actions}
          caption={t("textManagement.tableCaption")}
          selection={{
            rows: selection,
            rowLabel: (row) => t("textManagement.selectNamed", { slug: row.slug }),
          }}
        />

        <ListPager list={list} total={pagination?.total ?? 0} rowCount={rows.length} pageSizes={PAGE_SIZES} />
      </div>

      <PastePreviewDialog row={previewing} onClose={() => setPreviewing(null)} />
      <AccessLogDialog share={logOf} onClose={() => setLogOf(null)} />
      {notifyOf ? <NotificationRuleDialog subject={notifyOf} onClose={() => setNotifyOf(null)} /> : null}

      <PasteEditDialog
        row={editing}
        onClose={() => setEditing(null)}
        onSave={async (id, body) => {
          if (Object.keys(body).length > 0) await update.mutateAsync({ id, body });
          setEditing(null);
          toast(t("textManagement.updated"), "success");
        }}
      />

      <ConfirmDialog
        state={deleting}
        busy={remove.isPending}
        onConfirm={() => void confirmDelete()}
        title={
          deleting.target?.length === 1
            ? t("textManagement.deleteOneTitle", { slug: deleting.target[0]!.slug })
            : t("textManagement.deleteManyTitle", { count: deleting.target?.length ?? 0 })
        }
        description={t("textManagement.deleteDescription")}
      >
        <ul className="max-h-40 list-inside list-disc overflow-y-auto font-mono text-sm">
          {deleting.target?.map((row) => (
            <li key={row.id}>{row.slug}</li>
          ))}
        </ul>
      </ConfirmDialog>

      <ConfirmDialog
        state={clearing}
        busy={clear.isPending}
        onConfirm={() => void confirmClear()}
        title={t("textManagement.clearTitle")}
        description={
          caps.isAdmin ? t("textManagement.clearDescriptionAdmin") : t("textManagement.clearDescriptionKey")
        }
        confirmLabel={t("textManagement.clearConfirm")}
      >
        <p className="text-sm">{t("textManagement.clearBody")}</p>
      </ConfirmDialog>
    </Card>
  );
}
