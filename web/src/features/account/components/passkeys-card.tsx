import { PASSKEY_NAME_MAX, type PasskeyDto } from "@clipshare/shared";
import { Fingerprint, Pencil, Trash2 } from "lucide-react";
import { type FormEvent, useState } from "react";
import { ConfirmDialog } from "../../../components/list/confirm-dialog";
import type { ListColumn, RowAction } from "../../../components/list/data-list";
import { ListRows } from "../../../components/list/list-frame";
import { useConfirm } from "../../../components/list/use-list-state";
import { Alert } from "../../../components/ui/alert";
import { Button } from "../../../components/ui/button";
import { Card, CardHeader } from "../../../components/ui/card";
import { TextField } from "../../../components/ui/form";
import { toast } from "../../../components/ui/toast";
import { useTranslation } from "../../../i18n";
import { isPasskeyCancel, passkeysSupported } from "../../../lib/accounts/passkeys";
import { formatDateTime } from "../../../lib/format";
import { useErrorText } from "../../../lib/use-error-text";
import { useAddPasskey, useDeletePasskey, usePasskeys, useRenamePasskey } from "../hooks/use-passkeys";

/** A name, then the browser's prompt (screen lock, security key) makes the passkey. */
function AddPasskey() {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const add = useAddPasskey();
  const [name, setName] = useState("");
  const [error, setError] = useState<string | null>(null);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    try {
      await add.mutateAsync(name.trim());
      setName("");
      toast(t("account.passkeys.added"), "success");
    } catch (err) {
      setError(isPasskeyCancel(err) ? t("account.passkeys.cancelled") : errorText(err));
    }
  }

  if (!passkeysSupported()) return <Alert tone="info">{t("account.passkeys.unsupported")}</Alert>;
  return (
    <form onSubmit={submit} noValidate className="space-y-3">
      <TextField
        label={t("account.passkeys.name")}
        hint={t("account.passkeys.nameHint")}
        maxLength={PASSKEY_NAME_MAX}
        value={name}
        onChange={(e) => setName(e.target.value)}
      />
      {error ? <Alert>{error}</Alert> : null}
      <Button type="submit" disabled={add.isPending || !name.trim()}>
        <Fingerprint className="h-4 w-4" aria-hidden />
        {t("account.passkeys.add")}
      </Button>
    </form>
  );
}

function RenamePasskey({ passkey, onDone }: { passkey: PasskeyDto; onDone: () => void }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const rename = useRenamePasskey();
  const [name, setName] = useState(passkey.name);
  const [error, setError] = useState<string | null>(null);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    try {
      await rename.mutateAsync({ id: passkey.id, name: name.trim() });
      toast(t("account.passkeys.renamed"), "success");
      onDone();
    } catch (err) {
      setError(errorText(err));
    }
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-3">
      <TextField
        label={t("account.passkeys.newName", { name: passkey.name })}
        maxLength={PASSKEY_NAME_MAX}
        value={name}
        onChange={(e) => setName(e.target.value)}
        autoFocus
      />
      {error ? <Alert>{error}</Alert> : null}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={rename.isPending || !name.trim()}>
          {t("common.save")}
        </Button>
        <Button type="button" variant="outline" onClick={onDone}>
          {t("common.cancel")}
        </Button>
      </div>
    </form>
  );
}

/** My account → Passkeys: add one, see when each was used, rename or delete it. */
export function PasskeysCard() {
  const { t, i18n } = useTranslation();
  const errorText = useErrorText();
  const passkeys = usePasskeys();
  const remove = useDeletePasskey();
  const confirm = useConfirm<PasskeyDto>();
  const [renaming, setRenaming] = useState<PasskeyDto | null>(null);
  const rows = passkeys.data?.passkeys ?? [];

  const columns: ListColumn<PasskeyDto>[] = [
    {
      id: "name",
      header: t("account.passkeys.columns.name"),
      primary: true,
      cell: (row) => <span className="font-medium">{row.name}</span>,
    },
    {
      id: "created",
      header: t("account.passkeys.columns.created"),
      className: "whitespace-nowrap text-slate-600 dark:text-slate-300",
      cell: (row) => formatDateTime(row.created_at, i18n.language),
    },
    {
      id: "lastUsed",
      header: t("account.passkeys.columns.lastUsed"),
      className: "whitespace-nowrap text-slate-600 dark:text-slate-300",
      cell: (row) =>
        row.last_used_at ? formatDateTime(row.last_used_at, i18n.language) : t("account.passkeys.never"),
    },
  ];

  const actions = (row: PasskeyDto): RowAction[] => [
    {
      id: "rename",
      label: t("account.passkeys.renameNamed", { name: row.name }),
      title: t("account.passkeys.rename"),
      icon: Pencil,
      onClick: () => setRenaming(row),
    },
    {
      id: "delete",
      label: t("account.passkeys.deleteNamed", { name: row.name }),
      title: t("account.passkeys.delete"),
      icon: Trash2,
      danger: true,
      onClick: () => confirm.ask(row),
    },
  ];

  return (
    <Card aria-labelledby="account-passkeys-title">
      <CardHeader
        titleId="account-passkeys-title"
        title={t("account.passkeys.title")}
        description={t("account.passkeys.description")}
      />
      <div className="space-y-4 p-5">
        <ListRows
          query={passkeys}
          icon={Fingerprint}
          emptyText={t("account.passkeys.empty")}
          rows={rows}
          columns={columns}
          actions={actions}
          caption={t("account.passkeys.tableCaption")}
        />
        {renaming ? (
          <RenamePasskey key={renaming.id} passkey={renaming} onDone={() => setRenaming(null)} />
        ) : (
          <AddPasskey />
        )}
      </div>
      <ConfirmDialog
        state={confirm}
        title={t("account.passkeys.deleteNamed", { name: confirm.target?.name ?? "" })}
        description={t("account.passkeys.confirmDelete", { name: confirm.target?.name ?? "" })}
        busy={remove.isPending}
        onConfirm={async () => {
          if (!confirm.target) return;
          try {
            await remove.mutateAsync(confirm.target.id);
            confirm.close();
            toast(t("account.passkeys.deleted"), "success");
          } catch (err) {
            confirm.setError(errorText(err));
          }
        }}
      />
    </Card>
  );
}
