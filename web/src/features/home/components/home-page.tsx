import { useQueryClient } from "@tanstack/react-query";
import { lazy, Suspense, useEffect, useState } from "react";
import { Alert } from "../../../components/ui/alert";
import { Button } from "../../../components/ui/button";
import { useTranslation } from "../../../i18n";
import { isApiError } from "../../../lib/api-error";
import { useCapabilities } from "../../../lib/auth-store";
import { formatDateTime } from "../../../lib/format";
import type { TextFormat } from "../../../lib/markdown/detect";
import type { ReplayReport } from "../../../lib/offline/offline-queue";
import { QUEUE_REPLAYED_EVENT } from "../../../lib/offline/queue-status";
import { useReceivedShare } from "../../../lib/offline/use-received-share";
import { type CreatedPaste, pastesApi } from "../../../lib/pastes/api";
import { recentPastes, useRecentPastes } from "../../../lib/recent-pastes";
import {
  createBody,
  emptyShareForm,
  hasErrors,
  type ShareFormErrors,
  type ShareFormValues,
  validateShareForm,
} from "../../../lib/share-options/form-model";
import { useErrorText } from "../../../lib/use-error-text";
import { clearDraft, loadDraft } from "../draft-storage";
import { useDraftAutosave } from "../hooks/use-draft";
import { EditorCard } from "./editor-card";
import { ShareForm } from "./share-form";
import { ShareResult } from "./share-result";
import { SignInPrompt } from "./sign-in-prompt";

const RecentPastes = lazy(() => import("./recent-pastes"));

/** Home: the online clipboard. Write text or Markdown, then share it with a short link. */
export function HomePage() {
  const { t, i18n } = useTranslation();
  const caps = useCapabilities();
  const errorText = useErrorText();
  const queryClient = useQueryClient();
  const recent = useRecentPastes();

  const [restored] = useState(() => loadDraft());
  const [restoredNotice, setRestoredNotice] = useState(restored !== null);
  const [content, setContent] = useState(restored?.content ?? "");
  const [format, setFormat] = useState<TextFormat>(restored?.format ?? "markdown");
  const [values, setValues] = useState<ShareFormValues>(() => ({
    ...emptyShareForm(),
    remark: restored?.remark ?? "",
  }));
  const [errors, setErrors] = useState<ShareFormErrors>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [created, setCreated] = useState<{
    paste: CreatedPaste;
    fragment?: string;
    passwordSet: boolean;
  } | null>(null);
  const [encrypt, setEncrypt] = useState(false);
  const [queued, setQueued] = useState(false);
  const [shareMissing, setShareMissing] = useState(false);
  // Text or a link shared to the installed app: into the editor, after what is already there.
  useReceivedShare((share) => {
    if (share?.text) {
      const text = share.text;
      setContent((current) => (current.trim() ? `${current}\n\n${text}` : text));
      setRestoredNotice(false);
    } else {
      setShareMissing(true);
    }
  });

  // The paste written offline was sent: its link replaces the "will be sent" notice.
  useEffect(() => {
    if (!queued) return;
    const onReplayed = (event: Event) => {
      const { sent } = (event as CustomEvent<ReplayReport>).detail;
      const paste = sent.findLast((s) => s.type === "paste-create")?.data as CreatedPaste | undefined;
      if (!paste) return;
      setQueued(false);
      setCreated({ paste, passwordSet: paste.has_password });
    };
    window.addEventListener(QUEUE_REPLAYED_EVENT, onReplayed);
    return () => window.removeEventListener(QUEUE_REPLAYED_EVENT, onReplayed);
  }, [queued]);

  const draftStatus = useDraftAutosave({ content, format, remark: values.remark }, !busy);
  const canShare = caps.text;

  function discardDraft() {
    clearDraft();
    setContent("");
    setValues((v) => ({ ...v, remark: "" }));
    setRestoredNotice(false);
  }

  async function submit() {
    const found = validateShareForm(content, values);
    setErrors(found);
    setServerError(null);
    setQueued(false);
    if (hasErrors(found) || !canShare) return;
    setBusy(true);
    try {
      // Encrypted: the password wraps the key in the link; the server gets neither.
      const body = createBody(content, encrypt ? { ...values, password: "" } : values);
      // The encryption code loads only when a paste is encrypted.
      const sealed = encrypt
        ? await (await import("../../../lib/e2e/paste-crypto")).sealPasteText(content, values.password)
        : null;
      if (sealed) {
        body.content = sealed.content;
        body.encrypted = true;
      }
      const { createBodyProblem } = await import("../../../lib/pastes/schema-check");
      const other = createBodyProblem(body);
      if (other) {
        setErrors({ other });
        return;
      }
      const result = sealed ? await pastesApi.createEncrypted(body) : await pastesApi.create(body);
      void queryClient.invalidateQueries({ queryKey: ["pastes"] });
      clearDraft();
      setContent("");
      setValues(emptyShareForm());
      // Like every other option, encryption is chosen again for the next paste.
      setEncrypt(false);
      setRestoredNotice(false);
      setCreated({ paste: result, fragment: sealed?.fragment, passwordSet: values.password !== "" });
      recentPastes.remember(result);
    } catch (err) {
      if (isApiError(err) && err.kind === "queued") {
        // Kept in the offline queue: the editor is free again, the text is not lost.
        clearDraft();
        setContent("");
        setValues(emptyShareForm());
        setRestoredNotice(false);
        setQueued(true);
      } else if (isApiError(err) && err.errorId === "slug_taken") setErrors({ slug: "taken" });
      else if (isApiError(err) && err.errorId === "content_too_large") setErrors({ content: "tooLarge" });
      // Encrypted pastes are never queued: say why instead of a bare network error.
      else if (encrypt && isApiError(err) && err.kind === "network") setServerError(t("e2e.offline"));
      else setServerError(errorText(err));
    } finally {
      setBusy(false);
    }
  }

  const contentError =
    errors.content === "required"
      ? t("pastes.form.errors.content.required")
      : errors.content === "tooLarge"
        ? t("pastes.form.errors.content.tooLarge")
        : null;

  return (
    <div className="space-y-5">
      <header>
        <h1 className="text-2xl font-semibold tracking-tight">{t("home.title")}</h1>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{t("home.description")}</p>
      </header>

      {!canShare ? <SignInPrompt caps={caps} /> : null}

      {queued ? (
        <Alert tone="info">
          <span data-testid="paste-queued">{t("offlineApp.pasteQueued")}</span>
        </Alert>
      ) : null}
      {shareMissing ? <Alert tone="info">{t("offlineApp.shareMissing")}</Alert> : null}

      {restoredNotice && restored ? (
        <div
          role="status"
          className="flex flex-wrap items-center justify-between gap-2 rounded-xl border border-sky-200 bg-sky-50 px-4 py-2.5 text-sm text-sky-900 dark:border-sky-900/60 dark:bg-sky-950/40 dark:text-sky-100"
        >
          <span>
            {t("home.draftRestored", { date: formatDateTime(restored.savedAt, i18n.language) || "—" })}
          </span>
          <span className="flex gap-2">
            <Button variant="ghost" size="sm" onClick={() => setRestoredNotice(false)}>
              {t("home.keepDraft")}
            </Button>
            <Button variant="outline" size="sm" onClick={discardDraft}>
              {t("home.discardDraft")}
            </Button>
          </span>
        </div>
      ) : null}

      <EditorCard
        content={content}
        onContentChange={(text) => {
          setContent(text);
          if (errors.content) setErrors((e) => ({ ...e, content: undefined }));
        }}
        format={format}
        onFormatChange={setFormat}
        draftStatus={draftStatus}
        error={contentError}
      />

      {created ? (
        <ShareResult
          key={created.paste.id}
          created={created.paste}
          fragment={created.fragment}
          passwordSet={created.passwordSet}
          onDone={() => setCreated(null)}
        />
      ) : null}

      <ShareForm
        values={values}
        onChange={(next) => {
          // "Already taken" was said of the suffix sent; once it is edited, the message is stale.
          if (errors.slug === "taken" && next.slug !== values.slug)
            setErrors((e) => ({ ...e, slug: undefined }));
          setValues(next);
        }}
        errors={errors}
        serverError={serverError}
        busy={busy}
        canShare={canShare}
        onSubmit={() => void submit()}
        encrypt={encrypt}
        onEncryptChange={setEncrypt}
      />

      {recent.length > 0 ? (
        <Suspense fallback={null}>
          <RecentPastes pastes={recent} />
        </Suspense>
      ) : null}
    </div>
  );
}
