/**
 * The app's short notices (toasts): a store any code may post to, free of UI. The Toaster
 * component (components/ui/toast.tsx) shows them.
 */
export type ToastTone = "success" | "error" | "info";

/** A text, or a function giving it (evaluated when shown, in the current language). */
export type ToastMessage = string | (() => string);

/** The screen edge a toast is shown at. */
export type ToastEdge = "top" | "bottom";

export interface ToastItem {
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

/** For the Toaster: the notices shown now, and a way to hear of changes. */
export const notices = {
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  getSnapshot: (): ToastItem[] => items,
};

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
