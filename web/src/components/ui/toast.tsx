import { AlertCircle, CheckCircle2, Info, X } from "lucide-react";
import { useEffect, useSyncExternalStore } from "react";
import { useTranslation } from "../../i18n";
import { cn } from "../../lib/cn";

export type ToastTone = "success" | "error" | "info";

/** A text, or a function giving it (evaluated when shown, in the current language). */
export type ToastMessage = string | (() => string);

/** The screen edge a toast is shown at. */
export type ToastEdge = "top" | "bottom";

interface ToastItem {
  id: number;
  tone: ToastTone;
  message: ToastMessage;
  durationMs: number;
  edge: ToastEdge;
}

/**
 * Where (viewport y) the user last pressed or typed. A toast reports on what
 * that press did, so it goes to the other half of the screen: it never covers
 * the button it is about, which may need pressing again.
 */
let lastInteraction: { y: number; at: number } | null = null;
const INTERACTION_MEMORY_MS = 30_000;

if (typeof window !== "undefined") {
  window.addEventListener(
    "pointerdown",
    (e) => {
      lastInteraction = { y: e.clientY, at: Date.now() };
    },
    true,
  );
  window.addEventListener(
    "keydown",
    () => {
      const el = document.activeElement;
      if (!el || el === document.body) return;
      const box = el.getBoundingClientRect();
      lastInteraction = { y: box.top + box.height / 2, at: Date.now() };
    },
    true,
  );
}

function edgeAwayFromInteraction(): ToastEdge {
  if (!lastInteraction || Date.now() - lastInteraction.at > INTERACTION_MEMORY_MS) return "bottom";
  return lastInteraction.y > window.innerHeight / 2 ? "top" : "bottom";
}

let items: ToastItem[] = [];
let nextId = 1;
const listeners = new Set<() => void>();

function publish(next: ToastItem[]) {
  items = next;
  for (const l of listeners) l();
}

export function dismissToast(id: number): void {
  publish(items.filter((item) => item.id !== id));
}

/**
 * Show a short notice (announced to screen readers), at the bottom, or at the
 * top when the user's last press was in the lower half of the screen.
 */
export function toast(message: ToastMessage, tone: ToastTone = "info", durationMs = 4000): number {
  const id = nextId++;
  // The same text twice in a row (e.g. several requests failing at once) shows once.
  const rest = items.filter((item) => item.message !== message);
  const edge = typeof window === "undefined" ? "bottom" : edgeAwayFromInteraction();
  publish([...rest.slice(-3), { id, tone, message, durationMs, edge }]);
  return id;
}

function ToastView({ item }: { item: ToastItem }) {
  const { t } = useTranslation();
  useEffect(() => {
    const timer = setTimeout(() => dismissToast(item.id), item.durationMs);
    return () => clearTimeout(timer);
  }, [item.id, item.durationMs]);
  const text = typeof item.message === "function" ? item.message() : item.message;
  const Icon = item.tone === "error" ? AlertCircle : item.tone === "success" ? CheckCircle2 : Info;
  return (
    <div
      className={cn(
        "pointer-events-auto flex w-full items-start gap-2.5 rounded-xl border px-4 py-3 text-sm shadow-lg",
        "border-slate-200 bg-white text-slate-800 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100",
      )}
    >
      <Icon
        aria-hidden
        className={cn(
          "mt-0.5 h-4 w-4 shrink-0",
          item.tone === "error" && "text-red-500",
          item.tone === "success" && "text-emerald-500",
          item.tone === "info" && "text-sky-500",
        )}
      />
      <p className="min-w-0 flex-1 break-words">{text}</p>
      <button
        type="button"
        onClick={() => dismissToast(item.id)}
        aria-label={t("common.dismiss")}
        title={t("common.dismiss")}
        className="rounded p-0.5 text-slate-400 hover:text-slate-700 dark:hover:text-slate-200"
      >
        <X className="h-3.5 w-3.5" aria-hidden />
      </button>
    </div>
  );
}

export function Toaster() {
  const current = useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => items,
    () => items,
  );
  // All toasts stand together, at the edge the newest one chose (the top one clears the header bar).
  const edge = current[current.length - 1]?.edge ?? "bottom";
  return (
    <div
      role="status"
      aria-live="polite"
      data-edge={edge}
      className={cn(
        "pointer-events-none fixed inset-x-0 z-[60] flex flex-col items-center gap-2 p-4 sm:items-end",
        edge === "top" ? "top-14" : "bottom-0",
      )}
    >
      <div className="flex w-full max-w-sm flex-col gap-2">
        {current.map((item) => (
          <ToastView key={item.id} item={item} />
        ))}
      </div>
    </div>
  );
}
