import type { RelocateDetail, View } from "foliate-js/view.js";
import { BookOpen, ChevronLeft, ChevronRight } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "../../i18n";
import { Alert } from "../ui/alert";
import { Button } from "../ui/button";
import { Spinner } from "../ui/spinner";

/** A book title as foliate-js gives it: a string, or one per language. */
function titleOf(title: string | Record<string, string> | undefined): string | null {
  if (!title) return null;
  return typeof title === "string" ? title : (Object.values(title)[0] ?? null);
}

/**
 * An EPUB read in the page, with foliate-js (its own chunk, loaded when a book is opened). The
 * book's pages render in frames on blob: URLs, which inherit the app's Content-Security-Policy,
 * so scripts inside a book never run. `load` fetches the file with the caller's credentials.
 */
export default function EpubReader({
  name,
  load,
}: {
  name: string;
  load: (signal: AbortSignal) => Promise<Blob>;
}) {
  const { t } = useTranslation();
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<View | null>(null);
  const [state, setState] = useState<"loading" | "ready" | "failed">("loading");
  const [title, setTitle] = useState<string | null>(null);
  const [place, setPlace] = useState<RelocateDetail | null>(null);

  useEffect(() => {
    const aborted = new AbortController();
    let element: View | null = null;
    (async () => {
      const [blob] = await Promise.all([load(aborted.signal), import("foliate-js/view.js")]);
      if (aborted.signal.aborted || !host.current) return;
      element = document.createElement("foliate-view") as View;
      element.className = "block h-full w-full";
      element.addEventListener("relocate", (e) => setPlace((e as CustomEvent<RelocateDetail>).detail));
      host.current.append(element);
      await element.open(new File([blob], name, { type: "application/epub+zip" }));
      if (aborted.signal.aborted) return;
      view.current = element;
      setTitle(titleOf(element.book.metadata?.title));
      await element.init({});
      setState("ready");
    })().catch(() => {
      if (!aborted.signal.aborted) setState("failed");
    });
    return () => {
      aborted.abort();
      element?.close?.();
      element?.remove();
      view.current = null;
    };
  }, [load, name]);

  const percent = place?.fraction === undefined ? null : Math.round(place.fraction * 100);
  return (
    <section
      aria-label={t("epub.label", { name: title ?? name })}
      className="flex h-[75dvh] flex-col gap-2 rounded-xl bg-white p-3 text-slate-800 dark:bg-slate-900 dark:text-slate-100"
      data-testid="epub-reader"
    >
      <header className="flex min-w-0 items-center gap-2">
        <BookOpen className="h-4 w-4 shrink-0" aria-hidden />
        <h2 className="min-w-0 flex-1 truncate text-sm font-semibold" data-testid="epub-title">
          {title ?? name}
        </h2>
        {percent !== null ? (
          <span
            className="text-xs text-slate-500 tabular-nums dark:text-slate-400"
            data-testid="epub-progress"
          >
            {t("epub.progress", { percent })}
          </span>
        ) : null}
      </header>
      {place?.tocItem?.label ? (
        <p className="truncate text-xs text-slate-600 dark:text-slate-300" data-testid="epub-chapter">
          {place.tocItem.label}
        </p>
      ) : null}
      {state === "failed" ? <Alert>{t("epub.failed")}</Alert> : null}
      <div className="relative min-h-0 flex-1">
        {state === "loading" ? (
          <div className="absolute inset-0 flex items-center justify-center">
            <Spinner />
          </div>
        ) : null}
        <div ref={host} className="h-full w-full" />
      </div>
      <nav className="flex justify-between" aria-label={t("epub.pages")}>
        <Button
          variant="outline"
          size="sm"
          disabled={state !== "ready"}
          onClick={() => void view.current?.goLeft()}
        >
          <ChevronLeft className="h-4 w-4" aria-hidden />
          {t("epub.previous")}
        </Button>
        <Button
          variant="outline"
          size="sm"
          disabled={state !== "ready"}
          onClick={() => void view.current?.goRight()}
        >
          {t("epub.next")}
          <ChevronRight className="h-4 w-4" aria-hidden />
        </Button>
      </nav>
    </section>
  );
}
