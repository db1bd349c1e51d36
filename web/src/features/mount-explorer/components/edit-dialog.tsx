import { useEffect, useState } from "react";
import { CodeEditor } from "../../../components/code-editor/code-editor";
import { Alert } from "../../../components/ui/alert";
import { Button } from "../../../components/ui/button";
import { Dialog } from "../../../components/ui/dialog";
import { Spinner } from "../../../components/ui/spinner";
import { toast } from "../../../components/ui/toast";
import { useTranslation } from "../../../i18n";
import { useErrorText } from "../../../lib/use-error-text";
import { fsApi } from "../api/fs";
import { useFileText } from "../hooks/use-fs";
import { baseName, fileKind } from "../model/paths";

/** Edit a text file in CodeMirror and save it through /api/fs/update. Its own chunk. */
export default function EditDialog({
  path,
  onClose,
  onSaved,
}: {
  path: string;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const text = useFileText(path);
  const [value, setValue] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (text.data !== undefined && value === null) setValue(text.data);
  }, [text.data, value]);
  const name = baseName(path);
  const dirty = value !== null && value !== text.data;
  return (
    <Dialog
      open
      size="lg"
      onOpenChange={(open) => !open && onClose()}
      title={t("explorer.editTitle")}
      description={path}
      footer={
        <>
          <Button variant="outline" onClick={onClose}>
            {t("common.cancel")}
          </Button>
          <Button
            disabled={busy || value === null || !dirty}
            onClick={async () => {
              setBusy(true);
              setError(null);
              try {
                await fsApi.update(path, value ?? "");
                toast(t("explorer.saved", { name }), "success");
                onSaved();
                onClose();
              } catch (err) {
                setError(errorText(err));
              } finally {
                setBusy(false);
              }
            }}
          >
            {busy ? t("common.saving") : t("common.save")}
          </Button>
        </>
      }
    >
      {text.isError ? <Alert>{errorText(text.error)}</Alert> : null}
      {value === null && !text.isError ? <Spinner /> : null}
      {value !== null ? (
        <CodeEditor
          className="h-[55dvh]"
          value={value}
          onChange={setValue}
          format={fileKind(name) === "markdown" ? "markdown" : "plain"}
          label={t("explorer.editorLabel", { name })}
          autoFocus
        />
      ) : null}
      {error ? <Alert className="mt-3">{error}</Alert> : null}
    </Dialog>
  );
}
