import type { ComponentType } from "react";
import { browserHistory, type HistoryPort } from "./history";
import { matchRoutes, type RouteMatch, type RouteObject } from "./match";

export interface Location {
  pathname: string;
  search: string;
  hash: string;
  /** What the navigation that made this entry passed as `state`. */
  state: unknown;
  /** Tells history entries apart (scroll positions are kept per key). */
  key: string;
}

export interface NavigateOptions {
  replace?: boolean;
  state?: unknown;
}

/** How the current entry was reached: a new entry, one replaced, or back/forward (and the first load). */
export type NavigationAction = "push" | "replace" | "pop";

export interface RouterState {
  location: Location;
  action: NavigationAction;
  /** The routes drawing the location, outermost first; null until the first page is ready. */
  matches: RouteMatch[] | null;
  /** A guard or a page's code failed: the error and the level whose error boundary shows it. */
  failure: { level: number; error: unknown } | null;
  /** True while the next location's guards run and its code loads. */
  navigating: boolean;
}

export type Router = ReturnType<typeof createRouter>;

const MAX_REDIRECTS = 20;

const newKey = () => Math.random().toString(36).slice(2, 10);

/** The address bar form of a URL, without origin. */
export const pathOf = (url: URL): string => url.pathname + url.search + url.hash;

/**
 * The app's navigation: resolves a location (its guards, then the code of its pages)
 * before showing it, so the current page stays up, with a progress indicator, until
 * the next one can be drawn whole. The newest navigation wins over slower earlier ones.
 */
export function createRouter(routes: RouteObject[], history: HistoryPort = browserHistory()) {
  const listeners = new Set<() => void>();
  const loaded = new Map<RouteObject, ComponentType>();
  let latest = 0;
  let state: RouterState = {
    location: { pathname: "/", search: "", hash: "", state: undefined, key: "" },
    action: "pop",
    matches: null,
    failure: null,
    navigating: true,
  };

  const update = (next: Partial<RouterState>) => {
    state = { ...state, ...next };
    for (const listener of listeners) listener();
  };

  const load = (route: RouteObject): Promise<void> | undefined =>
    route.load && !loaded.has(route)
      ? route.load().then((component) => {
          loaded.set(route, component);
        })
      : undefined;

  async function resolve(url: URL, action: NavigationAction, usr: unknown): Promise<void> {
    const id = ++latest;
    if (!state.navigating) update({ navigating: true });
    let failure: RouterState["failure"] = null;
    let matches: RouteMatch[] = [];
    for (let redirects = 0; ; redirects++) {
      matches = matchRoutes(routes, url.pathname) ?? [];
      const loads = matches.map(({ route }) => load(route));
      for (const pending of loads) pending?.catch(() => undefined);
      let redirect: string | null = null;
      for (const [level, { route, params }] of matches.entries()) {
        try {
          redirect = (await route.guard?.({ params, url })) ?? null;
          if (redirect && redirects === MAX_REDIRECTS)
            throw new Error(`Too many redirects at ${url.pathname}`);
          if (redirect) break;
          await loads[level];
        } catch (error) {
          failure = { level, error };
          break;
        }
      }
      if (id !== latest) return;
      if (!redirect || failure) break;
      // The redirect takes the place of the entry asked for: it is never recorded.
      url = new URL(redirect, url);
      usr = undefined;
      if (action === "pop") action = "replace";
    }

    let key = history.entry()?.key;
    if (action !== "pop" || !key) {
      key = newKey();
      history.write(url, { key, usr }, action !== "push");
    }
    const location = { pathname: url.pathname, search: url.search, hash: url.hash, state: usr, key };
    // A failure is shown by the nearest route at or above it that has an error boundary.
    while (failure && failure.level >= 0 && !matches[failure.level]?.route.ErrorBoundary) failure.level--;
    update({ location, action, matches, failure, navigating: false });
  }

  const router = {
    getState: () => state,
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    /** The component of a route, once its module has loaded. */
    componentOf: (route: RouteObject): ComponentType | undefined => route.Component ?? loaded.get(route),
    /** True for a link this router opens itself: one on this origin. */
    owns: (to: string): boolean => new URL(to, history.url()).origin === history.url().origin,
    /**
     * Opens `to` (a path, or a URL of this origin) as a new entry, or in place of the
     * current one with `replace` or when it is the current address already; a number
     * moves through the history. Resolves once the page is shown.
     */
    navigate(to: string | number, { replace, state: usr }: NavigateOptions = {}): Promise<void> {
      if (typeof to === "number") {
        history.go(to);
        return Promise.resolve();
      }
      const url = new URL(to, history.url());
      if (url.origin !== history.url().origin) {
        window.location.assign(url.href);
        return Promise.resolve();
      }
      const same = pathOf(url) === pathOf(history.url());
      return resolve(url, (replace ?? same) ? "replace" : "push", usr);
    },
  };

  history.listen(() => {
    void resolve(history.url(), "pop", history.entry()?.usr);
  });
  void resolve(history.url(), "pop", history.entry()?.usr);
  return router;
}
