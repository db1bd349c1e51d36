import { ChevronDown, Server } from "lucide-react";
import { type FormEvent, useId, useState } from "react";
import { Alert } from "../../../components/ui/alert";
import { Button } from "../../../components/ui/button";
import { Field, Input } from "../../../components/ui/form";
import { useTranslation } from "../../../i18n";
import { apiBase } from "../../../lib/api";
import { getStoredBackendUrl, isValidBackendUrl, setStoredBackendUrl } from "../../../lib/runtime-config";

/**
 * Hidden environment switcher: lets a signed-in admin point this
 * browser at another ClipShare backend. Rendered only with ?showEnvSwitcher.
 */
export function EnvSwitcher() {
  const { t } = useTranslation();
  const titleId = useId();
  const [open, setOpen] = useState(true);
  const [url, setUrl] = useState(getStoredBackendUrl() ?? "");
  const [invalid, setInvalid] = useState(false);

  const effective = apiBase.url || (typeof window === "undefined" ? "" : window.location.origin);

  function apply(e: FormEvent) {
    e.preventDefault();
    if (!isValidBackendUrl(url)) {
      setInvalid(true);
      return;
    }
    setStoredBackendUrl(url);
    window.location.reload();
  }

  function reset() {
    setStoredBackendUrl(null);
    window.location.reload();
  }

  return (
    <section
      aria-labelledby={titleId}
      className="fixed right-4 bottom-4 z-40 w-[min(22rem,calc(100vw-2rem))] rounded-2xl border border-amber-300 bg-white shadow-xl dark:border-amber-700/70 dark:bg-slate-900"
    >
      <button
        type="button"
        aria-expanded={open}
        onClick={() => setOpen((o) => !o)}
        className="flex w-full items-center gap-2 px-4 py-3 text-left"
      >
        <Server className="h-4 w-4 text-amber-600" aria-hidden />
        <h2 id={titleId} className="flex-1 text-sm font-semibold">
          {t("envSwitcher.title")}
        </h2>
        <ChevronDown className={open ? "h-4 w-4 rotate-180 transition" : "h-4 w-4 transition"} aria-hidden />
      </button>
      {open ? (
        <form
          onSubmit={apply}
          noValidate
          className="space-y-3 border-t border-slate-200 px-4 py-3 dark:border-slate-800"
        >
          <dl className="text-xs">
            <dt className="text-slate-500 dark:text-slate-400">{t("envSwitcher.current")}</dt>
            <dd className="font-mono break-all">{effective}</dd>
            <dd className="mt-0.5 text-slate-500 dark:text-slate-400">
              {t(`envSwitcher.source.${apiBase.source}`)}
            </dd>
          </dl>
          {apiBase.source === "runtime" ? <Alert tone="info">{t("envSwitcher.runtimeWins")}</Alert> : null}
          <Field
            label={t("envSwitcher.backendUrl")}
            hint={t("envSwitcher.backendUrlHint")}
            error={invalid ? t("envSwitcher.invalidUrl") : null}
          >
            {({ id, describedBy, invalid: inv }) => (
              <Input
                id={id}
                type="url"
                inputMode="url"
                placeholder="https://clipshare.example.com"
                aria-describedby={describedBy}
                invalid={inv}
                value={url}
                onChange={(e) => {
                  setUrl(e.target.value);
                  setInvalid(false);
                }}
              />
            )}
          </Field>
          <div className="flex justify-end gap-2">
            <Button
              variant="outline"
              size="sm"
              onClick={reset}
              disabled={apiBase.source !== "stored" && !getStoredBackendUrl()}
            >
              {t("envSwitcher.reset")}
            </Button>
            <Button type="submit" size="sm">
              {t("envSwitcher.apply")}
            </Button>
          </div>
        </form>
      ) : null}
    </section>
  );
}
