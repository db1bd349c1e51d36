import { STORAGE_KEYS } from "@clipshare/shared";
import { useSyncExternalStore } from "react";
import { readString, writeString } from "./storage";

/** Theme preference: stored as auto, light or dark; auto follows the system, live. */
export type ThemeMode = "auto" | "light" | "dark";
export type ResolvedTheme = "light" | "dark";

export const THEME_CYCLE: readonly ThemeMode[] = ["auto", "light", "dark"];

export function nextThemeMode(mode: ThemeMode): ThemeMode {
  return THEME_CYCLE[(THEME_CYCLE.indexOf(mode) + 1) % THEME_CYCLE.length]!;
}

export function parseThemeMode(value: string | null): ThemeMode {
  return value === "light" || value === "dark" || value === "auto" ? value : "auto";
}

const DARK_QUERY = "(prefers-color-scheme: dark)";

interface ThemeSnapshot {
  mode: ThemeMode;
  resolved: ResolvedTheme;
}

let snapshot: ThemeSnapshot = { mode: "auto", resolved: "light" };
const listeners = new Set<() => void>();

function systemTheme(): ResolvedTheme {
  return typeof matchMedia === "function" && matchMedia(DARK_QUERY).matches ? "dark" : "light";
}

function apply(mode: ThemeMode): void {
  const resolved = mode === "auto" ? systemTheme() : mode;
  const root = document.documentElement;
  root.classList.toggle("dark", resolved === "dark");
  root.style.colorScheme = resolved;
  root.dataset.theme = mode;
  snapshot = { mode, resolved };
  for (const listener of listeners) listener();
}

export const themeStore = {
  getSnapshot: (): ThemeSnapshot => snapshot,
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  /** Apply the stored mode before the first render and follow system changes while in auto. */
  init(): void {
    apply(parseThemeMode(readString(STORAGE_KEYS.themeMode)));
    if (typeof matchMedia === "function") {
      matchMedia(DARK_QUERY).addEventListener("change", () => {
        if (snapshot.mode === "auto") apply("auto");
      });
    }
    window.addEventListener("storage", (event) => {
      if (event.key === STORAGE_KEYS.themeMode) apply(parseThemeMode(event.newValue));
    });
  },
  setMode(mode: ThemeMode): void {
    writeString(STORAGE_KEYS.themeMode, mode);
    apply(mode);
  },
  cycle(): void {
    themeStore.setMode(nextThemeMode(snapshot.mode));
  },
};

export function useTheme(): ThemeSnapshot {
  return useSyncExternalStore(themeStore.subscribe, themeStore.getSnapshot, themeStore.getSnapshot);
}
