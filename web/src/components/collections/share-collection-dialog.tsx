import {
  type Collection,
  type CreateCollectionBody,
  collectionPagePath,
  parseMaxViews,
} from "@clipshare/shared";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "../../i18n";
import { COLLECTIONS_KEY, collectionsApi } from "../../lib/collections";
import { useErrorText } from "../../lib/use-error-text";
import { PasswordField } from "../password-input";
import { CreateShareDialog } from "../share-options/create-share-dialog";
import { ExpiryHoursField, MaxViewsField, maxViewsErrorText } from "../share-options/share-fields";
import { Alert } from "../ui/alert";
import { Field, Input } from "../ui/form";

/**
 * Shares several items under one link: a title, password, expiry and view limit for the
 * collection as a whole; then its link, to copy or scan. `items`: file shares or explorer paths.
 */
export function ShareCollectionDialog({
  items,
  description,
  onClose,
}: {
  items: CreateCollectionBody["items"];
  /** What is shared, in words ("3 files"). */
  description: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const qc = useQueryClient();
  const [title, setTitle] = useState("");
  const [password, setPassword] = useState("");
  const [expires, setExpires] = useState(0);
  const [maxViews, setMaxViews] = useState("");
  const [maxViewsInvalid, setMaxViewsInvalid] = useState(false);
  const [created, setCreated] = useState<Collection | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const url = created ? `${window.location.origin}${collectionPagePath(created.slug)}` : null;

  const create = async () => {
    // The same view-limit rule as every other share form: empty or 0 is unlimited.
    const views = parseMaxViews(maxViews);
    setMaxViewsInvalid(views === null);
    if (views === null) return;
    setBusy(true);
    setError(null);
    try {
      setCreated(
        await collectionsApi.create({
          items,
          ...(title.trim() ? { title: title.trim() } : {}),
          ...(password ? { password } : {}),
          ...(expires ? { expires_in: expires } : {}),
          ...(views ? { max_views: views } : {}),
        }),
      );
      void qc.invalidateQueries({ queryKey: COLLECTIONS_KEY });
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <CreateShareDialog
      title={t("collections.shareTitle")}
      description={description}
      createLabel={t("collections.create")}
      linkLabel={t("collections.link")}
      url={created ? url : null}
      busy={busy}
      onCreate={() => void create()}
      onClose={onClose}
    >
      <Field label={t("collections.title")} hint={t("explorer.optional")}>
        {({ id }) => (
          <Input id={id} value={title} maxLength={200} onChange={(e) => setTitle(e.target.value)} />
        )}
      </Field>
      <PasswordField
        label={t("explorer.sharePassword")}
        hint={t("explorer.optional")}
        autoComplete="new-password"
        value={password}
        onChange={setPassword}
      />
      <ExpiryHoursField value={String(expires)} onChange={(v) => setExpires(Number(v))} />
      <MaxViewsField
        value={maxViews}
        onChange={(value) => {
          setMaxViews(value);
          setMaxViewsInvalid(false);
        }}
        hint={t("collections.maxViewsHint")}
        error={maxViewsInvalid ? maxViewsErrorText(t) : null}
      />
      {error ? <Alert>{error}</Alert> : null}
    </CreateShareDialog>
  );
}
