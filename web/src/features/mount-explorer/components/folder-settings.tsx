import { useQuery, useQueryClient } from "@tanstack/react-query";
import { lazy, Suspense, useState } from "react";
import { PasswordField } from "../../../components/password-input";
import { PasswordPrompt } from "../../../components/password-prompt";
import { Alert } from "../../../components/ui/alert";
import { Button } from "../../../components/ui/button";
import { CheckboxField } from "../../../components/ui/checkbox";
import { Dialog } from "../../../components/ui/dialog";
import { SelectField, TextAreaField, TextField } from "../../../components/ui/form";
import { Spinner } from "../../../components/ui/spinner";
import { toast } from "../../../components/ui/toast";
import { useTranslation } from "../../../i18n";
import { isApiError } from "../../../lib/api-error";
import { useErrorText } from "../../../lib/use-error-text";
import { type FolderSettings, type FolderView, fsApi } from "../api/fs";
import { fsKey, useRefreshFs } from "../hooks/use-fs";

const MarkdownView = lazy(() => import("../../../components/text-view/markdown-view"));

/** What a folder shows above its listing and whether the caller may change it (GET /fs/folder). */
export function useFolderView(path: string, enabled: boolean) {
  return useQuery({
    queryKey: [...fsKey, "folder", path],
    queryFn: ({ signal }) => fsApi.folder(path, signal),
    enabled,
    staleTime: 30_000,
    retry: false,
  });
}

/** The folder a `folder_locked` answer names, or null for any other error. */
export function lockedFolderOf(error: unknown): string | null {
  if (!isApiError(error) || error.errorId !== "folder_locked") return null;
  const details = error.details as { path?: unknown } | undefined;
  return typeof details?.path === "string" ? details.path : null;
}

/** The header line and the readme (rendered and sanitized like pastes) of the folder, above its listing. */
export function FolderNotes({ view }: { view: FolderView | undefined }) {
  const { t } = useTranslation();
  if (!view || (!view.header && !view.readme)) return null;
  return (
    <section
      aria-label={t("folderSettings.notesLabel")}
      data-testid="folder-notes"
      className="rounded-xl border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900"
    >
      {view.header ? <p className="font-medium">{view.header}</p> : null}
      {view.readme ? (
        <Suspense fallback={<Spinner />}>
          <MarkdownView source={view.readme} className={view.header ? "mt-2" : undefined} />
        </Suspense>
      ) : null}
    </section>
  );
}

/** The folder's password, asked once; the pass is kept for the tab and the folder reloads. */
export function FolderUnlock({ folder }: { folder: string }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const refresh = useRefreshFs();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <PasswordPrompt
      title={t("folderSettings.lockedTitle")}
      description={t("folderSettings.lockedDescription", { path: folder })}
      texts={{
        label: t("folderSettings.password"),
        required: t("folderSettings.passwordRequired"),
        submit: t("folderSettings.unlock"),
        checking: t("folderSettings.checking"),
      }}
      busy={busy}
      error={error}
      onSubmit={async (password) => {
        setBusy(true);
        setError(null);
        try {
          await fsApi.unlockFolder(folder, password);
          await refresh();
        } catch (err) {
          setError(errorText(err));
        } finally {
          setBusy(false);
        }
      }}
    />
  );
}

type PublicChoice = "inherit" | "yes" | "no";

/** The admin's dialog for one folder's settings, with every folder's settings listed below. */
export function FolderSettingsDialog({ path, onClose }: { path: string; onClose: () => void }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const qc = useQueryClient();
  const view = useFolderView(path, true);
  const all = useQuery({
    queryKey: [...fsKey, "folder-settings"],
    queryFn: ({ signal }) => fsApi.allFolderSettings(signal),
  });
  const own = view.data?.own ?? null;
  return (
    <Dialog
      open
      size="lg"
      onOpenChange={(open) => !open && onClose()}
      title={t("folderSettings.title")}
      description={t("folderSettings.description", { path })}
    >
      {view.isError ? <Alert>{errorText(view.error)}</Alert> : null}
      {view.isPending ? (
        <Spinner />
      ) : view.data ? (
        <SettingsForm
          key={own?.updated_at ?? "none"}
          path={path}
          own={own}
          onDone={async (message) => {
            toast(message, "success");
            await qc.invalidateQueries({ queryKey: fsKey });
            onClose();
          }}
          errorText={errorText}
        />
      ) : null}
      <AllFolderSettings items={all.data} />
    </Dialog>
  );
}

function SettingsForm({
  path,
  own,
  onDone,
  errorText,
}: {
  path: string;
  own: FolderSettings | null;
  onDone: (message: string) => Promise<void>;
  errorText: (error: unknown) => string;
}) {
  const { t } = useTranslation();
  const [header, setHeader] = useState(own?.header ?? "");
  const [readme, setReadme] = useState(own?.readme ?? "");
  const [hide, setHide] = useState(own?.hide_patterns ?? "");
  const [password, setPassword] = useState("");
  const [removePassword, setRemovePassword] = useState(false);
  const [publicList, setPublicList] = useState<PublicChoice>(
    own?.public_list === true ? "yes" : own?.public_list === false ? "no" : "inherit",
  );
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function run(action: () => Promise<void>, message: string) {
    setBusy(true);
    setError(null);
    try {
      await action();
      await onDone(message);
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      className="space-y-4"
      onSubmit={(e) => {
        e.preventDefault();
        void run(
          () =>
            fsApi.saveFolderSettings({
              path,
              header: header.trim() === "" ? null : header,
              readme: readme.trim() === "" ? null : readme,
              hide_patterns: hide,
              ...(removePassword ? { password: null } : password ? { password } : {}),
              public_list: publicList === "inherit" ? null : publicList === "yes",
            }),
          t("folderSettings.saved"),
        );
      }}
    >
      <TextField
        label={t("folderSettings.header")}
        hint={t("folderSettings.headerHint")}
        value={header}
        maxLength={500}
        onChange={(e) => setHeader(e.target.value)}
      />
      <TextAreaField
        label={t("folderSettings.readme")}
        hint={t("folderSettings.readmeHint")}
        value={readme}
        rows={6}
        onChange={(e) => setReadme(e.target.value)}
      />
      <TextAreaField
        label={t("folderSettings.hide")}
        hint={t("folderSettings.hideHint")}
        value={hide}
        rows={3}
        controlClassName="font-mono"
        onChange={(e) => setHide(e.target.value)}
      />
      <PasswordField
        label={t("folderSettings.password")}
        hint={own?.has_password ? t("folderSettings.passwordSet") : t("folderSettings.passwordHint")}
        value={password}
        onChange={setPassword}
        autoComplete="new-password"
        disabled={removePassword}
      />
      {own?.has_password ? (
        <CheckboxField
          checked={removePassword}
          onCheckedChange={setRemovePassword}
          label={t("folderSettings.removePassword")}
        />
      ) : null}
      <SelectField
        label={t("folderSettings.publicList")}
        value={publicList}
        onChange={(e) => setPublicList(e.target.value as PublicChoice)}
      >
        <option value="inherit">{t("folderSettings.publicInherit")}</option>
        <option value="yes">{t("folderSettings.publicYes")}</option>
        <option value="no">{t("folderSettings.publicNo")}</option>
      </SelectField>
      {error ? <Alert>{error}</Alert> : null}
      <div className="flex flex-wrap justify-end gap-2">
        {own ? (
          <Button
            type="button"
            variant="outline"
            disabled={busy}
            onClick={() => void run(() => fsApi.removeFolderSettings(path), t("folderSettings.removed"))}
          >
            {t("folderSettings.removeAll")}
          </Button>
        ) : null}
        <Button type="submit" disabled={busy}>
          {busy ? t("common.saving") : t("common.save")}
        </Button>
      </div>
    </form>
  );
}

/** Every folder with settings (GET /admin/folder-settings), what each sets at a glance. */
function AllFolderSettings({ items }: { items: FolderSettings[] | undefined }) {
  const { t } = useTranslation();
  if (!items) return null;
  return (
    <section
      aria-label={t("folderSettings.allTitle")}
      className="mt-6 border-t border-slate-200 pt-4 dark:border-slate-800"
    >
      <h3 className="text-sm font-semibold">{t("folderSettings.allTitle")}</h3>
      <p className="text-xs text-slate-600 dark:text-slate-400">
        {items.length === 0
          ? t("folderSettings.allEmpty")
          : t("folderSettings.allCount", { count: items.length })}
      </p>
      <ul className="mt-2 space-y-1 text-sm" data-testid="folder-settings-list">
        {items.map((s) => (
          <li key={s.id} className="flex flex-wrap gap-x-2">
            <span className="font-mono break-all">{s.path}</span>
            <span className="text-slate-600 dark:text-slate-400">
              {[
                s.header ? t("folderSettings.flagHeader") : null,
                s.readme ? t("folderSettings.flagReadme") : null,
                s.hide_patterns
                  ? t("folderSettings.flagHide", { patterns: s.hide_patterns.split("\n").join(", ") })
                  : null,
                s.has_password ? t("folderSettings.flagPassword") : null,
                s.public_list ? t("folderSettings.flagPublic") : null,
              ]
                .filter(Boolean)
                .join(" · ")}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
