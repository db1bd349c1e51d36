import { parseMaxViews } from "@clipshare/shared";
import { Copy, ExternalLink } from "lucide-react";
import { useState } from "react";
import { PasswordField } from "../../../components/password-input";
import { QrCode } from "../../../components/qr-code";
import { MaxViewsField, maxViewsErrorText } from "../../../components/share-options/share-fields";
import { Alert } from "../../../components/ui/alert";
import { Button } from "../../../components/ui/button";
import { CheckboxField } from "../../../components/ui/checkbox";
import { Dialog } from "../../../components/ui/dialog";
import { Field, Input, Select } from "../../../components/ui/form";
import { useTranslation } from "../../../i18n";
import { copyText } from "../../../lib/clipboard";
import { formatDateTime } from "../../../lib/format";
import { fileShareUrl } from "../../../lib/share-links";
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

export function ShareDialog({ entry, onClose }: { entry: FsEntry; onClose: () => void }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const [password, setPassword] = useState("");
  const [expires, setExpires] = useState<number>(0);
  const [maxViews, setMaxViews] = useState("");
  const [maxViewsInvalid, setMaxViewsInvalid] = useState(false);
  const [share, setShare] = useState<CreatedShare | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const url = share ? fileShareUrl(share.slug) : null;
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={t("explorer.shareTitle")}
      description={entry.name}
      footer={
        share ? (
          <Button variant="outline" onClick={onClose}>
            {t("common.close")}
          </Button>
        ) : (
          <>
            <Button variant="outline" onClick={onClose}>
              {t("common.cancel")}
            </Button>
            <Button
              disabled={busy}
              onClick={async () => {
                // The same view-limit rule as every other share form: empty or 0 is unlimited.
                const views = parseMaxViews(maxViews);
                setMaxViewsInvalid(views === null);
                if (views === null) return;
                setBusy(true);
                setError(null);
                try {
                  setShare(
                    await fsApi.createShare(entry.path, {
                      password: password || undefined,
                      expires_in: expires || undefined,
                      max_views: views || undefined,
                    }),
                  );
                } catch (err) {
                  setError(errorText(err));
                } finally {
                  setBusy(false);
                }
              }}
            >
              {t("explorer.createShare")}
            </Button>
          </>
        )
      }
    >
      {share && url ? (
        <div className="flex flex-col items-center gap-3">
          <QrCode value={url} label={t("pastes.qrAlt", { link: url })} />
          <Input
            readOnly
            value={url}
            aria-label={t("explorer.shareLink")}
            onFocus={(e) => e.target.select()}
          />
          <Button size="sm" variant="outline" onClick={() => void copyText(url)}>
            <Copy className="h-4 w-4" aria-hidden />
            {t("common.copy")}
          </Button>
        </div>
      ) : (
        <div className="space-y-3">
          <PasswordField
            label={t("explorer.sharePassword")}
            hint={t("explorer.optional")}
            autoComplete="new-password"
            value={password}
            onChange={setPassword}
          />
          <Field label={t("explorer.shareExpiry")}>
            {({ id }) => (
              <Select id={id} value={expires} onChange={(e) => setExpires(Number(e.target.value))}>
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
            value={maxViews}
            onChange={(value) => {
              setMaxViews(value);
              setMaxViewsInvalid(false);
            }}
            error={maxViewsInvalid ? maxViewsErrorText(t) : null}
          />
          {error ? <Alert>{error}</Alert> : null}
        </div>
      )}
    </Dialog>
  );
}
