import type { AppPasswordDto, CreatedAppPassword } from "@clipshare/shared";
import { Copy, KeyRound, Plus, Trash2 } from "lucide-react";
import { type FormEvent, useId, useState } from "react";
import { ConfirmRowDialog } from "../../../components/list/confirm-dialog";
import type { ListColumn, RowAction } from "../../../components/list/data-list";
import { ListRows } from "../../../components/list/list-frame";
import { useConfirm } from "../../../components/list/use-list-state";
import { Alert } from "../../../components/ui/alert";
import { Button } from "../../../components/ui/button";
import { Card, CardHeader } from "../../../components/ui/card";
import { Input, Label, TextField } from "../../../components/ui/form";
import { toast } from "../../../components/ui/toast";
import { useTranslation } from "../../../i18n";
import { copyText } from "../../../lib/clipboard";
import { formatDateTime } from "../../../lib/format";
import { useErrorText } from "../../../lib/use-error-text";
import { useAppPasswords, useCreateAppPassword, useRevokeAppPassword } from "../hooks/use-app-passwords";

/** The new password with a copy button; it is not shown again. */
function NewAppPassword({ made, onDone }: { made: CreatedAppPassword; onDone: () => void }) {
  const { t } = useTranslation();
  const inputId = useId();
  return (
    <div className="space-y-3 rounded-lg border border-slate-200 p-4 dark:border-slate-700">
      <Label htmlFor={inputId}>{t("account.appPasswords.newPassword", { name: made.name })}</Label>
      <div className="flex gap-2">
        <Input
          id={inputId}
          readOnly
          value={made.password}
          className="font-mono"
          translate="no"
          onFocus={(e) => e.currentTarget.select()}
        />
        <Button
          variant="outline"
          aria-label={t("account.appPasswords.copy")}
          onClick={async () => {
            const ok = await copyText(made.password);
            toast(ok ? t("common.copied") : t("common.copyFailed"), ok ? "success" : "error");
          }}
        >
          <Copy className="h-4 w-4" aria-hidden />
        </Button>
      </div>
      <Alert tone="info">{t("account.appPasswords.shownOnce")}</Alert>
      <Button type="button" onClick={onDone}>
        {t("common.done")}
      </Button>
    </div>
  );
}

/** Passwords for WebDAV clients, which cannot ask for a second factor: made, listed, revoked. */
export function AppPasswordsCard() {
  const { t, i18n } = useTranslation();
  const errorText = useErrorText();
  const list = useAppPasswords();
  const create = useCreateAppPassword();
  const revoke = useRevokeAppPassword();
  const revoking = useConfirm<AppPasswordDto>();
  const [name, setName] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [made, setMade] = useState<CreatedAppPassword | null>(null);
  const rows = list.data?.app_passwords ?? [];

  async function submit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    try {
      setMade(await create.mutateAsync(name.trim()));
      setName("");
    } catch (err) {
      setError(errorText(err));
    }
  }

  const columns: ListColumn<AppPasswordDto>[] = [
    {
      id: "name",
      header: t("account.appPasswords.columns.name"),
      primary: true,
      cell: (row) => <span className="font-medium">{row.name}</span>,
    },
    {
      id: "created",
      header: t("account.appPasswords.columns.created"),
      className: "whitespace-nowrap text-slate-600 dark:text-slate-300",
      cell: (row) => formatDateTime(row.created_at, i18n.language),
    },
    {
      id: "lastUsed",
      header: t("account.appPasswords.columns.lastUsed"),
      className: "whitespace-nowrap text-slate-600 dark:text-slate-300",
      cell: (row) => formatDateTime(row.last_used_at, i18n.language) || t("account.appPasswords.neverUsed"),
    },
  ];
  const actions = (row: AppPasswordDto): RowAction[] => [
    {
      id: "revoke",
      label: t("account.appPasswords.revokeNamed", { name: row.name }),
      title: t("account.appPasswords.revoke"),
      icon: Trash2,
      danger: true,
      onClick: () => revoking.ask(row),
    },
  ];

  return (
    <Card aria-labelledby="account-app-passwords-title">
      <CardHeader
        titleId="account-app-passwords-title"
        title={t("account.appPasswords.title")}
        description={t("account.appPasswords.description")}
      />
      <div className="space-y-4 p-5">
        {made ? (
          <NewAppPassword made={made} onDone={() => setMade(null)} />
        ) : (
          <form className="flex flex-col gap-3 sm:flex-row sm:items-end" onSubmit={submit}>
            <TextField
              label={t("account.appPasswords.name")}
              hint={t("account.appPasswords.nameHint")}
              value={name}
              maxLength={100}
              required
              onChange={(e) => setName(e.target.value)}
              className="sm:flex-1"
            />
            <Button type="submit" disabled={create.isPending || name.trim() === ""}>
              <Plus className="h-4 w-4" aria-hidden />
              {t("account.appPasswords.create")}
            </Button>
          </form>
        )}
        {error ? <Alert>{error}</Alert> : null}
        <ListRows
          query={list}
          icon={KeyRound}
          emptyText={t("account.appPasswords.empty")}
          rows={rows}
          columns={columns}
          actions={actions}
          caption={t("account.appPasswords.tableCaption")}
        />
      </div>
      <ConfirmRowDialog
        confirm={revoking}
        busy={revoke.isPending}
        action={(row) => revoke.mutateAsync(row.id)}
        done={() => t("account.appPasswords.revoked")}
        title={(row) => t("account.appPasswords.revokeTitle", { name: row?.name ?? "" })}
        description={t("account.appPasswords.revokeDescription")}
        confirmLabel={t("account.appPasswords.revoke")}
      />
    </Card>
  );
}
