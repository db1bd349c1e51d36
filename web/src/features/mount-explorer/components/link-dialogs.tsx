import { parseMaxViews } from "@clipshare/shared";
import { Copy, ExternalLink } from "lucide-react";
import { useState } from "react";
import { PasswordField } from "../../../components/password-input";
import { CreateShareDialog } from "../../../components/share-options/create-share-dialog";
import {
  AccessLogField,
  MaxViewsField,
  RemarkField,
  SlugField,
  useShareErrorText,
} from "../../../components/share-options/share-fields";
import { Alert } from "../../../components/ui/alert";
import { Button } from "../../../components/ui/button";
import { CheckboxField } from "../../../components/ui/checkbox";
import { Dialog } from "../../../components/ui/dialog";
import { Field, Input, Select } from "../../../components/ui/form";
import { useTranslation } from "../../../i18n";
import { isApiError } from "../../../lib/api-error";
import { copyText } from "../../../lib/clipboard";
import { formatDateTime } from "../../../lib/format";
import { fileShareUrl } from "../../../lib/share-links";
import { type ShareOptionFieldErrors, shareOptionFieldProblems } from "../../../lib/share-options/form-model";
import { useErrorText } from "../../../lib/use-error-text";
import { type CreatedShare, type FileLink, type FsEntry, fsApi } from "../api/fs";

const LINK_EXPIRY = [
  { seconds: 3600, key: "explorer.expiry.hour" },
  { seconds: 86400, key: "explorer.expiry.day" },
  { seconds: 7 * 86400, key: "explorer.expiry.week" },
] as const;

/** Share expiry is in hours, as in the upload options. */
const SHARE_EXPIRY_HOURS = [
  { hours: 1, key: "explorer.expiry.hour" },
  { hours: 24, key: "explorer.expiry.day" },
  { hours: 168, key: "explorer.expiry.week" },
] as const;

export function LinkDialog({ entry, onClose }: { entry: FsEntry; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const errorText = useErrorText();
  const [expires, setExpires] = useState<number>(86400);
  const [force, setForce] = useState(false);
  const [link, setLink] = useState<FileLink | null>(null);
  const [error, setError] = useState<string | null>(null);
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={t("explorer.linkTitle")}
      description={entry.name}
      footer={
        <>
          <Button variant="outline" onClick={onClose}>
            {t("common.close")}
          </Button>
          <Button
            onClick={async () => {
              setError(null);
              try {
                setLink(await fsApi.fileLink(entry.path, force, expires));
              } catch (err) {
                setError(errorText(err));
              }
            }}
          >
            {t("explorer.createLink")}
          </Button>
        </>
      }
    >
      <div className="space-y-3">
        <Field label={t("explorer.linkExpiry")}>
          {({ id }) => (
            <Select
              id={id}
              value={expires}
              onChange={(e) => {
                setExpires(Number(e.target.value));
                setLink(null);
              }}
            >
              {LINK_EXPIRY.map((o) => (
                <option key={o.seconds} value={o.seconds}>
                  {t(o.key)}
                </option>
              ))}
            </Select>
          )}
        </Field>
        <CheckboxField
          label={t("explorer.forceDownload")}
          checked={force}
          onCheckedChange={(v) => {
            setForce(v);
            setLink(null);
          }}
        />
        {link ? (
          <div className="space-y-2 rounded-lg bg-slate-50 p-3 dark:bg-slate-800/60">
            <Input
              readOnly
              value={link.presignedUrl}
              aria-label={t("explorer.directLink")}
              onFocus={(e) => e.target.select()}
            />
            <p className="text-xs text-slate-500 dark:text-slate-400">
              {t("explorer.expiresAt", { time: formatDateTime(link.expiresAt, i18n.language) })}
            </p>
            <div className="flex gap-2">
              <Button size="sm" variant="outline" onClick={() => void copyText(link.presignedUrl)}>
                <Copy className="h-4 w-4" aria-hidden />
                {t("common.copy")}
              </Button>
              <a
                className="inline-flex items-center gap-1 text-sm text-indigo-600 hover:underline dark:text-indigo-300"
                href={link.presignedUrl}
                target="_blank"
                rel="noreferrer"
              >
                <ExternalLink className="h-4 w-4" aria-hidden />
                {t("explorer.openLink")}
              </a>
            </div>
          </div>
        ) : null}
        {error ? <Alert>{error}</Alert> : null}
      </div>
    </Dialog>
  );
}

/** The share options of the explorer's share dialog, as typed. */
interface ShareDialogValues {
  remark: string;
  slug: string;
  password: string;
  expiresInHours: number;
  maxViews: string;
  noLog: boolean;
}

const EMPTY_SHARE_VALUES: ShareDialogValues = {
  remark: "",
  slug: "",
  password: "",
  expiresInHours: 0,
  maxViews: "",
  noLog: false,
};

export function ShareDialog({ entry, onClose }: { entry: FsEntry; onClose: () => void }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const fieldError = useShareErrorText();
  const [values, setValues] = useState(EMPTY_SHARE_VALUES);
  const [problems, setProblems] = useState<ShareOptionFieldErrors>({});
  const [share, setShare] = useState<CreatedShare | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const url = share ? fileShareUrl(share.slug) : null;
  const set = <K extends keyof ShareDialogValues>(key: K, value: ShareDialogValues[K]) => {
    setValues((v) => ({ ...v, [key]: value }));
    setProblems((p) => ({ ...p, [key]: undefined }));
  };

  const create = async () => {
    // The share-option rules of every other share form.
    const found = shareOptionFieldProblems(values);
    setProblems(found);
    if (Object.values(found).some(Boolean)) return;
    setBusy(true);
    setError(null);
    try {
      setShare(
        await fsApi.createShare(entry.path, {
          remark: values.remark.trim() || undefined,
          slug: values.slug.trim() || undefined,
          password: values.password || undefined,
          expires_in: values.expiresInHours || undefined,
          max_views: parseMaxViews(values.maxViews) || undefined,
          no_log: values.noLog || undefined,
        }),
      );
    } catch (err) {
      if (isApiError(err) && err.errorId === "slug_taken") setProblems({ slug: "taken" });
      else setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <CreateShareDialog
      title={t("explorer.shareTitle")}
      description={entry.name}
      createLabel={t("explorer.createShare")}
      linkLabel={t("explorer.shareLink")}
      url={url}
      busy={busy}
      onCreate={() => void create()}
      onClose={onClose}
    >
      <RemarkField
        label={t("upload.options.remark")}
        hint={t("explorer.optional")}
        error={fieldError("remark", problems.remark)}
        value={values.remark}
        onChange={(v) => set("remark", v)}
      />
      <SlugField
        prefix="/file/"
        label={t("upload.options.slug")}
        hint={t("explorer.optional")}
        error={fieldError("slug", problems.slug)}
        value={values.slug}
        onChange={(v) => set("slug", v)}
      />
      <PasswordField
        label={t("explorer.sharePassword")}
        hint={t("explorer.optional")}
        error={fieldError("password", problems.password)}
        autoComplete="new-password"
        value={values.password}
        onChange={(v) => set("password", v)}
      />
      <Field label={t("explorer.shareExpiry")}>
        {({ id }) => (
          <Select
            id={id}
            value={values.expiresInHours}
            onChange={(e) => set("expiresInHours", Number(e.target.value))}
          >
            <option value={0}>{t("explorer.expiry.never")}</option>
            {SHARE_EXPIRY_HOURS.map((o) => (
              <option key={o.hours} value={o.hours}>
                {t(o.key)}
              </option>
            ))}
          </Select>
        )}
      </Field>
      <MaxViewsField
        value={values.maxViews}
        onChange={(v) => set("maxViews", v)}
        error={fieldError("maxViews", problems.maxViews)}
      />
      <AccessLogField noLog={values.noLog} onChange={(noLog) => set("noLog", noLog)} />
      {error ? <Alert>{error}</Alert> : null}
    </CreateShareDialog>
  );
}
