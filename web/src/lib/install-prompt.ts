import { INSTALL_PROMPT_CHECK_MS, INSTALL_PROMPT_RESHOW_MS } from "@clipshare/shared";
import { useSyncExternalStore } from "react";
import { readString, writeString } from "./storage";

/**
 * The install offer: shown while the browser says the app can be
 * installed and it is not installed; after "not now" it stays away for seven
 * days. The condition is checked every five seconds.
 */

interface BeforeInstallPromptEvent extends Event {
  prompt(): Promise<void>;
  userChoice: Promise<{ outcome: "accepted" | "dismissed" }>;
}

export const INSTALL_DISMISSED_KEY = "clipshare_install_dismissed_at";

let deferred: BeforeInstallPromptEvent | null = null;
let visible = false;
const listeners = new Set<() => void>();

function isInstalled(): boolean {
  return typeof matchMedia === "function" && matchMedia("(display-mode: standalone)").matches;
}

/** Whether the offer may show now, given when it was last dismissed (epoch ms or null). */
export function installOfferAllowed(dismissedAt: number | null, now: number): boolean {
  return dismissedAt === null || now - dismissedAt > INSTALL_PROMPT_RESHOW_MS;
}

function dismissedAt(): number | null {
  const value = Number(readString(INSTALL_DISMISSED_KEY));
  return Number.isFinite(value) && value > 0 ? value : null;
}

function recompute(): void {
  const next = deferred !== null && !isInstalled() && installOfferAllowed(dismissedAt(), Date.now());
  if (next === visible) return;
  visible = next;
  for (const l of listeners) l();
}

export const installPrompt = {
  /** Once at startup, before the browser's event can fire. */
  init(): void {
    window.addEventListener("beforeinstallprompt", (event) => {
      // Keep the browser's own mini-infobar away; the app offers it in its own words.
      event.preventDefault();
      deferred = event as BeforeInstallPromptEvent;
      recompute();
    });
    window.addEventListener("appinstalled", () => {
      deferred = null;
      recompute();
    });
    setInterval(recompute, INSTALL_PROMPT_CHECK_MS);
  },
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  getSnapshot: () => visible,
  dismiss(): void {
    writeString(INSTALL_DISMISSED_KEY, String(Date.now()));
    recompute();
  },
  async install(): Promise<void> {
    const event = deferred;
    if (!event) return;
    // The browser's prompt can be shown once per event.
    deferred = null;
    await event.prompt();
    const choice = await event.userChoice;
    if (choice.outcome === "dismissed") installPrompt.dismiss();
    else recompute();
  },
};

export function useInstallOffer(): boolean {
  return useSyncExternalStore(installPrompt.subscribe, installPrompt.getSnapshot, installPrompt.getSnapshot);
}
