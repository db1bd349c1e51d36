import { type ComponentType, createElement, type ReactNode } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";
import { Outlet, RouterProvider, useLocation, useParams, useRouteError } from "./components";
import type { EntryState, HistoryPort } from "./history";
import type { Guard, RouteObject } from "./match";
import { createRouter, pathOf } from "./router";

const ORIGIN = "https://clip.test";

/** The session history of one tab, in memory: back and forward land on a later task, as in a browser. */
function tab(start: string) {
  const entries: { url: URL; entry: EntryState | null }[] = [{ url: new URL(start, ORIGIN), entry: null }];
  let index = 0;
  let onPop = () => {};
  const history: HistoryPort = {
    url: () => new URL(entries[index]!.url),
    entry: () => entries[index]!.entry,
    write(url, entry, replace) {
      if (!replace) entries.splice(++index);
      entries[index] = { url: new URL(url), entry };
    },
    go(delta) {
      index = Math.min(Math.max(index + delta, 0), entries.length - 1);
      setTimeout(() => onPop(), 0);
    },
    listen(callback) {
      onPop = callback;
    },
  };
  return { history, paths: () => entries.map((e) => pathOf(e.url)), at: () => index };
}

function deferred<T = void>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Lets pending guards, loads and back/forward finish. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 5));

const Page = ({ name }: { name: string }) => createElement("p", null, name);
const page = (name: string) => () => createElement(Page, { name });
const Layout = () => createElement("main", null, "layout:", createElement(Outlet));
const Failed = () => createElement("p", null, `failed: ${(useRouteError() as Error).message}`);

const Admin = () =>
  createElement(
    "section",
    null,
    `panel ${useParams().module}`,
    createElement("div", null, createElement(Outlet)),
  );
const Module = () => createElement("p", null, `module ${useParams().module} ${useLocation().search}`);

function app(children: RouteObject[]): RouteObject[] {
  return [{ Component: Layout, children: [{ ErrorBoundary: Failed, children }] }];
}

const render = (router: ReturnType<typeof createRouter>, fallback?: ReactNode) =>
  renderToString(createElement(RouterProvider, { router, fallback }));

describe("navigation", () => {
  it("the first load shows the address the tab opened, and keys its entry", async () => {
    const { history, paths } = tab("/paste/abc?x=1#top");
    const router = createRouter(app([{ path: "paste/:slug", Component: page("paste") }]), history);
    expect(router.getState()).toMatchObject({ matches: null, navigating: true });
    await settle();
    const { location, navigating, action } = router.getState();
    expect(location).toMatchObject({ pathname: "/paste/abc", search: "?x=1", hash: "#top" });
    expect(location.key).toBe(history.entry()?.key);
    expect({ navigating, action }).toEqual({ navigating: false, action: "pop" });
    expect(paths()).toEqual(["/paste/abc?x=1#top"]);
  });

  it("links add entries, replace swaps the current one, the same address is not recorded twice", async () => {
    const { history, paths, at } = tab("/");
    const router = createRouter(app([{ index: true }, { path: "*", Component: page("any") }]), history);
    await settle();
    await router.navigate("/a");
    await router.navigate("/b", { state: { from: "a" } });
    expect(paths()).toEqual(["/", "/a", "/b"]);
    expect(router.getState().location.state).toEqual({ from: "a" });
    await router.navigate("/c", { replace: true });
    expect(paths()).toEqual(["/", "/a", "/c"]);
    await router.navigate("/c");
    await router.navigate("?q=1");
    expect(paths()).toEqual(["/", "/a", "/c", "/c?q=1"]);
    expect(router.getState().action).toBe("push");

    await router.navigate(-2);
    await settle();
    expect(at()).toBe(1);
    expect(router.getState()).toMatchObject({
      action: "pop",
      location: { pathname: "/a", state: undefined },
    });
    await router.navigate(1);
    await settle();
    expect(router.getState().location).toMatchObject({ pathname: "/c", state: undefined });
    // The entry that was replaced is gone, its state with it; the one reached by back keeps its key.
    expect(router.getState().location.key).toBe(history.entry()?.key);
  });

  it("a page is shown only once its code has loaded; the old one stays up meanwhile", async () => {
    const { history } = tab("/");
    const code = deferred<ComponentType>();
    const slow: RouteObject = { path: "slow", load: () => code.promise };
    const router = createRouter(app([{ index: true, Component: page("home") }, slow]), history);
    await settle();
    const going = router.navigate("/slow");
    await settle();
    expect(router.getState()).toMatchObject({ navigating: true, location: { pathname: "/" } });
    expect(router.componentOf(slow)).toBeUndefined();
    expect(render(router)).toContain("home");
    code.resolve(page("slow page"));
    await going;
    expect(router.getState()).toMatchObject({ navigating: false, location: { pathname: "/slow" } });
    expect(render(router)).toContain("slow page");
  });

  it("a guard's redirect takes the place of the address asked for", async () => {
    const seen: string[] = [];
    const guard: Guard = ({ params, url }) => {
      seen.push(`${params["*"]} ${url.search}`);
      return params["*"] === "outside" ? `/files/base${url.search}` : null;
    };
    const { history, paths } = tab("/files/outside?preview=a");
    const router = createRouter(
      app([{ index: true }, { path: "files/*", guard, Component: page("files") }]),
      history,
    );
    await settle();
    // On the first load (and on back/forward) the entry is replaced.
    expect(paths()).toEqual(["/files/base?preview=a"]);
    await router.navigate("/");
    await router.navigate("/files/outside");
    // A link: the redirect is pushed, the refused address never enters the history.
    expect(paths()).toEqual(["/files/base?preview=a", "/", "/files/base"]);
    expect(seen).toEqual(["outside ?preview=a", "base ?preview=a", "outside ", "base "]);
  });

  it("a redirect loop ends in the error page instead of hanging", async () => {
    const { history } = tab("/");
    const router = createRouter(
      app([{ index: true }, { path: "a", guard: () => "/b" }, { path: "b", guard: () => "/a" }]),
      history,
    );
    await settle();
    await router.navigate("/a");
    expect(render(router)).toMatch(/layout:.*failed: Too many redirects/);
  });

  it("the newest navigation wins over a slower earlier one", async () => {
    const { history, paths } = tab("/");
    const check = deferred<string | null>();
    const router = createRouter(
      app([{ index: true }, { path: "slow", guard: () => check.promise }, { path: "fast" }]),
      history,
    );
    await settle();
    const slow = router.navigate("/slow");
    await router.navigate("/fast");
    check.resolve(null);
    await slow;
    expect(router.getState()).toMatchObject({ navigating: false, location: { pathname: "/fast" } });
    expect(paths()).toEqual(["/", "/fast"]);
  });

  it("code that fails to load shows the nearest error page in the layout, and is fetched again next time", async () => {
    const { history } = tab("/");
    const load = vi
      .fn<() => Promise<ComponentType>>()
      .mockRejectedValueOnce(new Error("Failed to fetch dynamically imported module"))
      .mockResolvedValue(page("loaded"));
    const router = createRouter(
      app([
        { index: true, Component: page("home") },
        { path: "p", load },
      ]),
      history,
    );
    await settle();
    await router.navigate("/p");
    // The address changed (reload retries it) and the layout stays around the error.
    expect(router.getState()).toMatchObject({ location: { pathname: "/p" }, failure: { level: 1 } });
    expect(render(router)).toMatch(/layout:.*failed: Failed to fetch dynamically imported module/);
    await router.navigate("/");
    expect(render(router)).toMatch(/layout:.*home/);
    await router.navigate("/p");
    expect(render(router)).toMatch(/layout:.*loaded/);
    expect(load).toHaveBeenCalledTimes(2);
  });
});

describe("drawing routes", () => {
  it("shows the fallback until the first page is ready", async () => {
    const { history } = tab("/");
    const code = deferred<ComponentType>();
    const router = createRouter(app([{ index: true, load: () => code.promise }]), history);
    expect(render(router, createElement("p", null, "loading"))).toContain("loading");
    code.resolve(page("home"));
    await settle();
    expect(render(router, "loading")).toMatch(/layout:.*home/);
  });

  it("layouts draw their child in the outlet; every level reads the same params and location", async () => {
    const { history } = tab("/admin/settings?tab=2");
    const router = createRouter(
      app([
        {
          path: "admin",
          Component: Admin,
          children: [{ index: true }, { path: ":module", Component: Module }],
        },
      ]),
      history,
    );
    await settle();
    expect(render(router)).toBe(
      "<main>layout:<section>panel settings<div><p>module settings ?tab=2</p></div></section></main>",
    );
  });

  it("with nothing to show an error, the failure reaches the app", async () => {
    const { history } = tab("/");
    const router = createRouter(
      [{ index: true, guard: () => Promise.reject(new Error("no boundary")), Component: page("home") }],
      history,
    );
    await settle();
    expect(router.getState().failure?.level).toBe(-1);
    expect(() => render(router)).toThrow("no boundary");
  });
});
