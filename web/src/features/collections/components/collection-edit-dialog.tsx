import { parseMaxViews, type UpdateCollectionBody } from "@clipshare/shared";
import { File, Folder, X } from "lucide-react";
import { type FormEvent, useEffect, useState } from "react";
import { PasswordField } from "../../../components/password-input";
import {
  ExpiryHoursField,
  MaxViewsField,
  maxViewsErrorText,
} from "../../../components/share-options/share-fields";
import { Alert } from "../../../components/ui/alert";
import { Button } from "../../../components/ui/button";
import { CheckboxField } from "../../../components/ui/checkbox";
import { Dialog } from "../../../components/ui/dialog";
import { Field, Input } from "../../../components/ui/form";
import { Spinner } from "../../../components/ui/spinner";
import { toast } from "../../../components/ui/toast";
import { useTranslation } from "../../../i18n";
import { formatBytes } from "../../../lib/file-size";
import { useErrorText } from "../../../lib/use-error-text";
import type { Collection } from "../api/collections";
import { useCollectionDetail, useUpdateCollection } from "../hooks/use-collections";

/** The changed fields of an edit; items only when some were removed. */
export function collectionUpdateBody(
  initial: Collection,
  values: { title: string; password: string; clearPassword: boolean; expiry: string; maxViews: number },
  removed: ReadonlySet<string>,
  items: Array<{ id: string; file_id: string | null; path: string | null }>,
  now = Date.now(),
): UpdateCollectionBody {
  const body: UpdateCollectionBody = {};
  if (values.title.trim() !== (initial.title ?? "")) body.title = values.title.trim() || null;
  if (values.clearPassword) body.password = null;
  else if (values.password) body.password = values.password;
  if (values.expiry !== "keep") {
    const hours = Number(values.expiry);
    body.expires_at = hours ? new Date(now + hours * 3600_000).toISOString() : null;
  }
  if (values.maxViews !== (initial.max_views ?? 0)) body.max_views = values.maxViews || null;
  if (removed.size > 0)
    body.items = items
      .filter((i) => !removed.has(i.id))
      .map((i) => (i.path !== null ? { path: i.path } : { file_id: i.file_id! }));
  return body;
}

/** Edit a collection: title, password, expiry, view limit (a new one starts the count again), its items. */
export function CollectionEditDialog({
  collection,
  onClose,
}: {
  collection: Collection | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const detail = useCollectionDetail(collection?.id ?? null);
  const update = useUpdateCollection();
  const [title, setTitle] = useState("");
  const [password, setPassword] = useState("");
  const [clearPassword, setClearPassword] = useState(false);
  const [expiry, setExpiry] = useState("keep");
  const [maxViews, setMaxViews] = useState("");
  const [maxViewsInvalid, setMaxViewsInvalid] = useState(false);
  const [removed, setRemoved] = useState<ReadonlySet<string>>(new Set());
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!collection) return;
    setTitle(collection.title ?? "");
    setPassword("");
    setClearPassword(false);
    setExpiry("keep");
    setMaxViews(collection.max_views ? String(collection.max_views) : "");
    setRemoved(new Set());
    setError(null);
  }, [collection]);

  const items = detail.data?.items ?? [];
  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    if (!collection) return;
    const views = parseMaxViews(maxViews);
    setMaxViewsInvalid(views === null);
    if (views === null) return;
    if (removed.size > 0 && removed.size === items.length) {
      setError(t("collections.keepOne"));
      return;
    }
    const body = collectionUpdateBody(
      collection,
      { title, password, clearPassword, expiry, maxViews: views },
      removed,
      items,
    );
    if (Object.keys(body).length === 0) return onClose();
    try {
      await update.mutateAsync({ id: collection.id, body });
      toast(t("collections.updated"), "success");
      onClose();
    } catch (err) {
      setError(errorText(err));
    }
  };

  return (
    <Dialog
      open={collection !== null}
      onOpenChange={(open) => !open && onClose()}
      title={t("collections.editTitle")}
      description={collection?.title ?? collection?.slug}
      footer={
        <>
          <Button variant="outline" onClick={onClose}>
            {t("common.cancel")}
          </Button>
          <Button disabled={update.isPending} onClick={() => void submit()}>
            {t("common.save")}
          </Button>
        </>
      }
    >
      <form className="space-y-3" onSubmit={(e) => void submit(e)}>
        <Field label={t("collections.title")}>
          {({ id }) => (
            <Input id={id} value={title} maxLength={200} onChange={(e) => setTitle(e.target.value)} />
          )}
        </Field>
        <PasswordField
          label={t("collections.newPassword")}
          hint={collection?.has_password ? t("collections.passwordKeepHint") : t("explorer.optional")}
          autoComplete="new-password"
          value={password}
          onChange={setPassword}
        />
        {collection?.has_password ? (
          <CheckboxField
            label={t("collections.clearPassword")}
            checked={clearPassword}
            onCheckedChange={setClearPassword}
          />
        ) : null}
        <ExpiryHoursField value={expiry} onChange={setExpiry} keepLabel={t("collections.keepExpiry")} />
        <MaxViewsField
          value={maxViews}
          onChange={(value) => {
            setMaxViews(value);
            setMaxViewsInvalid(false);
          }}
          hint={t("collections.maxViewsEditHint")}
          error={maxViewsInvalid ? maxViewsErrorText(t) : null}
        />
        <fieldset>
          <legend className="mb-1 text-sm font-medium text-slate-700 dark:text-slate-200">
            {t("collections.items")}
          </legend>
          {detail.isPending ? <Spinner /> : null}
          <ul className="max-h-56 divide-y divide-slate-200 overflow-y-auto rounded-lg border border-slate-200 dark:divide-slate-800 dark:border-slate-800">
            {items
              .filter((item) => !removed.has(item.id))
              .map((item) => (
                <li key={item.id} className="flex items-center gap-2 px-3 py-1.5 text-sm">
                  {item.is_directory ? (
                    <Folder className="h-4 w-4 shrink-0 text-slate-400" aria-hidden />
                  ) : (
                    <File className="h-4 w-4 shrink-0 text-slate-400" aria-hidden />
                  )}
                  <span className="min-w-0 flex-1 break-all">{item.path ?? item.name}</span>
                  {item.size !== null ? (
                    <span className="text-xs text-slate-500 dark:text-slate-400">
                      {formatBytes(item.size)}
                    </span>
                  ) : null}
                  <Button
                    variant="ghost"
                    size="icon"
                    aria-label={t("collections.removeItem", { name: item.name })}
                    onClick={() => setRemoved(new Set([...removed, item.id]))}
                  >
                    <X className="h-4 w-4" aria-hidden />
                  </Button>
                </li>
              ))}
          </ul>
        </fieldset>
        {error ? <Alert>{error}</Alert> : null}
      </form>
    </Dialog>
  );
}
