import type { CreateFileRequestBody, FileRequest } from "@clipshare/shared";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Inbox } from "lucide-react";
import { type FormEvent, useMemo, useState } from "react";
import { ListBody, ListPager } from "../../../components/list/list-frame";
import { ListToolbar } from "../../../components/list/list-toolbar";
import { useListState, usePageInRange } from "../../../components/list/use-list-state";
import { Button } from "../../../components/ui/button";
import { Card, CardHeader } from "../../../components/ui/card";
import { CheckboxField } from "../../../components/ui/checkbox";
import { SelectField, TextField } from "../../../components/ui/form";
import { RefreshButton } from "../../../components/ui/refresh-button";
import { toast } from "../../../components/ui/toast";
import { useTranslation } from "../../../i18n";
import { useErrorText } from "../../../lib/use-error-text";
import { requestsApi } from "../api/request-target";
import { LIST_KEY, MiB } from "../request-form-model";
import { RequestEditDialog } from "./request-edit-dialog";
import { RequestRow } from "./request-row";

const PAGE_SIZE = 20;

/** Admin module "file requests": the caller's requests (the admin: all), a new one, and per request what arrived. */
export function FileRequestsModule() {
  const { t } = useTranslation();
  const list = useListState({ filters: {}, pageSize: PAGE_SIZE });
  const { limit, offset, search } = list;
  const query = useMemo(() => ({ limit, offset, ...(search ? { search } : {}) }), [limit, offset, search]);
  const requests = useQuery({
    queryKey: [...LIST_KEY, "list", query],
    queryFn: () => requestsApi.list(query),
    placeholderData: keepPreviousData,
  });
  const rows = requests.data?.requests ?? [];
  const total = requests.data?.pagination.total ?? 0;
  usePageInRange(list, rows.length, requests.data?.pagination.total);
  const [open, setOpen] = useState<string | null>(null);
  const [editing, setEditing] = useState<FileRequest | null>(null);
  return (
    <div className="space-y-6">
      <Card aria-labelledby="requests-list-title">
        <CardHeader
          titleId="requests-list-title"
          title={t("admin.modules.fileRequests")}
          description={t("fileRequests.createHint")}
          actions={<RefreshButton onClick={() => void requests.refetch()} busy={requests.isFetching} />}
        />
        <div className="space-y-4 p-5">
          <ListToolbar
            list={list}
            searchLabel={t("fileRequests.search")}
            searchPlaceholder={t("fileRequests.searchPlaceholder")}
            onDeleteSelected={() => undefined}
          />
          <ListBody
            query={requests}
            rowCount={rows.length}
            icon={Inbox}
            emptyText={list.filtered ? t("fileRequests.noMatches") : t("fileRequests.empty")}
          >
            <ul
              className="divide-y divide-slate-200 rounded-xl border border-slate-200 dark:divide-slate-800 dark:border-slate-800"
              data-testid="request-list"
            >
              {rows.map((request) => (
                <RequestRow
                  key={request.id}
                  request={request}
                  expanded={open === request.id}
                  onToggle={() => setOpen(open === request.id ? null : request.id)}
                  onEdit={() => setEditing(request)}
                />
              ))}
            </ul>
          </ListBody>
          <ListPager list={list} total={total} rowCount={rows.length} busy={requests.isFetching} />
        </div>
      </Card>
      <CreateRequestCard />
      <RequestEditDialog request={editing} onClose={() => setEditing(null)} />
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
