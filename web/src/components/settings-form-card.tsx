import { type FormEvent, type ReactNode, useState } from "react";
import { useTranslation } from "../i18n";
import { useErrorText } from "../lib/use-error-text";
import { Alert } from "./ui/alert";
import { Button } from "./ui/button";
import { Card, CardHeader } from "./ui/card";
import { Spinner } from "./ui/spinner";
import { toast } from "./ui/toast";

export interface SettingsFormCardProps {
  /** Element id prefix: the card is named by `<id>-title`. */
  id: string;
  title: string;
  description: string;
  /** The query that loads the settings: the form shows once it has. */
  query: { isPending: boolean; isError: boolean; error: unknown };
  saving: boolean;
  /** false when the form is invalid (its fields say why); otherwise the save under way. */
  onSave: () => Promise<unknown> | false;
  children: ReactNode;
}

/** A settings card: loads, then a form whose Save says "Saved" or shows why it failed. */
export function SettingsFormCard({
  id,
  title,
  description,
  query,
  saving,
  onSave,
  children,
}: SettingsFormCardProps) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const [error, setError] = useState<string | null>(null);

  async function submit(e: FormEvent) {
    e.preventDefault();
    const saved = onSave();
    if (saved === false) return;
    setError(null);
    try {
      await saved;
      toast(t("settings.saved"), "success");
    } catch (err) {
      setError(errorText(err));
    }
  }

  return (
    <Card aria-labelledby={`${id}-title`}>
      <CardHeader titleId={`${id}-title`} title={title} description={description} />
      <div className="p-5">
        {query.isPending ? (
          <Spinner />
        ) : query.isError ? (
          <Alert>{errorText(query.error)}</Alert>
        ) : (
          <form onSubmit={submit} noValidate className="space-y-4">
            {children}
            {error ? <Alert>{error}</Alert> : null}
            <div className="flex justify-end">
              <Button type="submit" disabled={saving}>
                {saving ? t("common.saving") : t("common.save")}
              </Button>
            </div>
          </form>
        )}
      </div>
    </Card>
  );
}
