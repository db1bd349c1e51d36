import { rememberScroll } from "./scroll";

/** What the router keeps with each history entry: its key (for scroll positions) and the caller's state. */
export interface EntryState {
  key: string;
  usr?: unknown;
}

/** The session history the router drives: the browser's, or a list in memory for tests. */
export interface HistoryPort {
  url(): URL;
  entry(): EntryState | null;
  write(url: URL, entry: EntryState, replace: boolean): void;
  go(delta: number): void;
  /** `onPop` runs after back/forward (or a fragment link) changed the current entry. */
  listen(onPop: () => void): void;
}

const keyOf = (state: unknown): string | undefined => (state as EntryState | null)?.key;

/**
 * `window.history`, with the page's scroll position remembered for the entry being left,
 * so back and forward can put it back (the browser's own restoration runs before the
 * page is drawn, and is switched off).
 */
export function browserHistory(): HistoryPort {
  window.history.scrollRestoration = "manual";
  let current = keyOf(window.history.state);
  return {
    url: () => new URL(window.location.href),
    entry: () => window.history.state as EntryState | null,
    write(url, entry, replace) {
      rememberScroll(current);
      current = entry.key;
      window.history[replace ? "replaceState" : "pushState"](entry, "", url.href);
    },
    go: (delta) => window.history.go(delta),
    listen(onPop) {
      window.addEventListener("popstate", () => {
        rememberScroll(current);
        current = keyOf(window.history.state);
        onPop();
      });
    },
  };
}
