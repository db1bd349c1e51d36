import type { InvitationDto, UserDto } from "@clipshare/shared";
import { Link2, MailPlus, Pencil, Trash2, UserPlus, Users } from "lucide-react";
import { useState } from "react";
import { PermissionBadges } from "../../../components/accounts/permission-badges";
import { CopyLinkButton } from "../../../components/copy-link-button";
import { ConfirmDialog } from "../../../components/list/confirm-dialog";
import type { ListColumn, RowAction } from "../../../components/list/data-list";
import { ListRows } from "../../../components/list/list-frame";
import { useConfirm } from "../../../components/list/use-list-state";
import { Badge } from "../../../components/ui/badge";
import { Button } from "../../../components/ui/button";
import { Card, CardHeader } from "../../../components/ui/card";
import { Dialog } from "../../../components/ui/dialog";
import { SelectField } from "../../../components/ui/form";
import { RefreshButton } from "../../../components/ui/refresh-button";
import { toast } from "../../../components/ui/toast";
import { UsageMeter } from "../../../components/ui/usage-meter";
import { useTranslation } from "../../../i18n";
import { formatBytes } from "../../../lib/file-size";
import { formatDateTime } from "../../../lib/format";
import { useErrorText } from "../../../lib/use-error-text";
import {
  useDeleteUser,
  useInvitations,
  useInvite,
  useSaveUser,
  useUsers,
  useWithdrawInvitation,
} from "../hooks/use-users";
import { createBody, emptyUserForm, formFromUser, invitationBody, updateBody } from "../user-form-model";
import { UserFormDialog } from "./user-form-dialog";

const inviteLink = (path: string) => `${window.location.origin}${path}`;

/** The grant as the lists show it: every right for administrators, else the bits and the base path. */
function Grant({ user }: { user: Pick<UserDto, "role" | "permissions" | "base_path"> }) {
  const { t } = useTranslation();
  if (user.role === "admin") return <Badge tone="accent">{t("apiKeys.allPermissions")}</Badge>;
  return (
    <span className="flex flex-col gap-1">
      <PermissionBadges mask={user.permissions} />
      <span className="font-mono text-xs" translate="no">
        {user.base_path}
      </span>
    </span>
  );
}

/** What a user's shares take, against their quota when they have one. */
function Usage({ user }: { user: Pick<UserDto, "used_bytes" | "quota_bytes"> }) {
  const { t } = useTranslation();
  if (user.quota_bytes === null)
    return <span className="whitespace-nowrap">{formatBytes(user.used_bytes)}</span>;
  const percent = user.quota_bytes > 0 ? Math.min(100, (user.used_bytes / user.quota_bytes) * 100) : 100;
  const text = t("users.usageOf", {
    used: formatBytes(user.used_bytes),
    quota: formatBytes(user.quota_bytes),
  });
  return (
    <span className="block whitespace-nowrap">
      {text}
      <UsageMeter percent={percent} label={text} />
    </span>
  );
}

/** Delete a user, handing what they own to someone else. */
function DeleteUserDialog({
  target,
  users,
  onClose,
}: {
  target: UserDto | null;
  users: UserDto[];
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const remove = useDeleteUser();
  const heirs = users.filter((u) => u.id !== target?.id && !u.disabled && u.role !== "guest");
  const [heir, setHeir] = useState("");
  const [error, setError] = useState<string | null>(null);
  const chosen = heir || heirs[0]?.id || "";
  return (
    <ConfirmDialog
      open={target !== null}
      busy={remove.isPending}
      error={error}
      onCancel={() => {
        setError(null);
        onClose();
      }}
      onConfirm={async () => {
        if (!target) return;
        try {
          const result = await remove.mutateAsync({ id: target.id, transferTo: chosen || null });
          toast(t("users.deleted", { count: result.transferred }), "success");
          setError(null);
          onClose();
        } catch (err) {
          setError(errorText(err));
        }
      }}
      title={t("users.deleteTitle", { name: target?.username ?? "" })}
      description={t("users.deleteDescription")}
    >
      <SelectField
        label={t("users.transferTo")}
        hint={t("users.transferHint")}
        value={chosen}
        onChange={(e) => setHeir(e.target.value)}
      >
        {heirs.map((u) => (
          <option key={u.id} value={u.id}>
            {u.display_name ? `${u.display_name} (${u.username})` : u.username}
          </option>
        ))}
      </SelectField>
    </ConfirmDialog>
  );
}

/** Invitations made, their state, and the one just made with its link. */
function InvitationsCard({ onInvite }: { onInvite: () => void }) {
  const { t, i18n } = useTranslation();
  const errorText = useErrorText();
  const invitations = useInvitations();
  const withdraw = useWithdrawInvitation();
  const rows = invitations.data?.invitations ?? [];
  const columns: ListColumn<InvitationDto>[] = [
    {
      id: "role",
      header: t("users.columns.role"),
      primary: true,
      cell: (row) => <Badge>{t(`users.roles.${row.role}`)}</Badge>,
    },
    { id: "grant", header: t("users.columns.grant"), cell: (row) => <Grant user={row} /> },
    { id: "note", header: t("users.columns.note"), cell: (row) => row.note ?? "" },
    {
      id: "status",
      header: t("users.columns.status"),
      cell: (row) => (
        <Badge tone={row.status === "pending" ? "success" : row.status === "expired" ? "danger" : undefined}>
          {t(`users.invitationStatus.${row.status}`)}
        </Badge>
      ),
    },
    {
      id: "expires",
      header: t("users.columns.expires"),
      className: "whitespace-nowrap text-slate-600 dark:text-slate-300",
      cell: (row) => formatDateTime(row.expires_at, i18n.language),
    },
  ];
  const actions = (row: InvitationDto): RowAction[] => [
    {
      id: "withdraw",
      label: t("users.withdrawNamed", { when: formatDateTime(row.created_at, i18n.language) }),
      title: t("users.withdraw"),
      icon: Trash2,
      danger: true,
      onClick: async () => {
        try {
          await withdraw.mutateAsync(row.id);
          toast(t("users.withdrawn"), "success");
        } catch (err) {
          toast(errorText(err), "error");
        }
      },
    },
  ];
  return (
    <Card aria-labelledby="invitations-title">
      <CardHeader
        titleId="invitations-title"
        title={t("users.invitations")}
        description={t("users.invitationsDescription")}
        actions={
          <Button variant="outline" onClick={onInvite}>
            <MailPlus className="h-4 w-4" aria-hidden />
            {t("users.invite")}
          </Button>
        }
      />
      <div className="p-5">
        <ListRows
          query={invitations}
          icon={Link2}
          emptyText={t("users.noInvitations")}
          rows={rows}
          columns={columns}
          actions={actions}
          caption={t("users.invitationsCaption")}
        />
      </div>
    </Card>
  );
}

/** Admin module "users": list, create, invite, change role and grant, disable, delete with a transfer. */
export function UsersModule() {
  const { t, i18n } = useTranslation();
  const errorText = useErrorText();
  const users = useUsers();
  const save = useSaveUser();
  const invite = useInvite();
  const [creating, setCreating] = useState(false);
  const [inviting, setInviting] = useState(false);
  const [editing, setEditing] = useState<UserDto | null>(null);
  const [link, setLink] = useState<string | null>(null);
  const deleting = useConfirm<UserDto>();
  const rows = users.data?.users ?? [];

  const columns: ListColumn<UserDto>[] = [
    {
      id: "name",
      header: t("users.columns.name"),
      primary: true,
      cell: (row) => (
        <span className="flex flex-col">
          <span className="font-medium text-slate-900 dark:text-slate-100">{row.username}</span>
          {row.display_name ? (
            <span className="text-xs text-slate-500 dark:text-slate-400">{row.display_name}</span>
          ) : null}
        </span>
      ),
    },
    {
      id: "role",
      header: t("users.columns.role"),
      cell: (row) => (
        <span className="flex flex-wrap gap-1">
          <Badge tone={row.role === "admin" ? "accent" : undefined}>{t(`users.roles.${row.role}`)}</Badge>
          {row.disabled ? <Badge tone="danger">{t("users.disabled")}</Badge> : null}
        </span>
      ),
    },
    {
      id: "grant",
      header: t("users.columns.grant"),
      className: "max-w-72",
      cell: (row) => <Grant user={row} />,
    },
    {
      id: "usage",
      header: t("users.columns.usage"),
      className: "min-w-36",
      cell: (row) => <Usage user={row} />,
    },
    {
      id: "lastLogin",
      header: t("users.columns.lastLogin"),
      className: "whitespace-nowrap text-slate-600 dark:text-slate-300",
      cell: (row) => formatDateTime(row.last_login_at, i18n.language) || t("users.neverSignedIn"),
    },
  ];

  const actions = (row: UserDto): RowAction[] => [
    {
      id: "edit",
      label: t("users.editNamed", { name: row.username }),
      title: t("common.edit"),
      icon: Pencil,
      onClick: () => setEditing(row),
    },
    {
      id: "delete",
      label: t("users.deleteNamed", { name: row.username }),
      title: t("common.delete"),
      icon: Trash2,
      danger: true,
      onClick: () => deleting.ask(row),
    },
  ];

  return (
    <div className="space-y-6">
      <Card aria-labelledby="users-title">
        <CardHeader
          titleId="users-title"
          title={t("admin.modules.users")}
          description={t("users.description")}
          actions={
            <>
              <RefreshButton busy={users.isFetching} onClick={() => void users.refetch()} />
              <Button onClick={() => setCreating(true)}>
                <UserPlus className="h-4 w-4" aria-hidden />
                {t("users.create")}
              </Button>
            </>
          }
        />
        <div className="p-5">
          <ListRows
            query={users}
            icon={Users}
            emptyText={t("users.empty")}
            rows={rows}
            columns={columns}
            actions={actions}
            caption={t("users.tableCaption")}
          />
        </div>
      </Card>

      <InvitationsCard onInvite={() => setInviting(true)} />

      <UserFormDialog
        mode="create"
        open={creating}
        initial={emptyUserForm()}
        onOpenChange={setCreating}
        onSubmit={async (values) => {
          try {
            await save.mutateAsync({ id: null, body: createBody(values) });
            setCreating(false);
            toast(t("users.created"), "success");
          } catch (err) {
            throw new Error(errorText(err));
          }
        }}
      />
      <UserFormDialog
        mode="edit"
        open={editing !== null}
        initial={editing ? formFromUser(editing) : emptyUserForm()}
        onOpenChange={(open) => !open && setEditing(null)}
        onSubmit={async (values, initial) => {
          if (!editing) return;
          try {
            await save.mutateAsync({ id: editing.id, body: updateBody(values, initial) });
            setEditing(null);
            toast(t("users.updated"), "success");
          } catch (err) {
            throw new Error(errorText(err));
          }
        }}
      />
      <UserFormDialog
        mode="invite"
        open={inviting}
        initial={emptyUserForm()}
        onOpenChange={setInviting}
        onSubmit={async (values) => {
          try {
            const made = await invite.mutateAsync(invitationBody(values));
            setInviting(false);
            setLink(inviteLink(made.path));
          } catch (err) {
            throw new Error(errorText(err));
          }
        }}
      />
      <Dialog
        open={link !== null}
        onOpenChange={(open) => !open && setLink(null)}
        title={t("users.linkTitle")}
        description={t("users.linkDescription")}
        footer={<Button onClick={() => setLink(null)}>{t("common.done")}</Button>}
      >
        <div className="flex items-center gap-2">
          <code
            className="min-w-0 flex-1 rounded-lg bg-slate-100 px-3 py-2 text-xs break-all dark:bg-slate-800"
            translate="no"
          >
            {link}
          </code>
          {link ? <CopyLinkButton link={link} label={t("users.copyLink")} /> : null}
        </div>
      </Dialog>
      <DeleteUserDialog target={deleting.target} users={rows} onClose={deleting.close} />
    </div>
  );
}
