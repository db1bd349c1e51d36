import { createMemoryRouter, type LoaderFunctionArgs, matchRoutes, type RouteObject } from "react-router";
import { describe, expect, it } from "vitest";
import { appRoutes, guarded, type RouteHandle } from "./router";

const routes = appRoutes as RouteObject[];

/** The route paths drawing `pathname`, outermost first (a layout shows as "", an index as "index"). */
const chain = (pathname: string) =>
  matchRoutes(routes, pathname)?.map(({ route }) => (route.index ? "index" : (route.path ?? "")));
const params = (pathname: string) => matchRoutes(routes, pathname)?.at(-1)?.params;
const titleOf = (pathname: string, keyHolder = false) => {
  const match = matchRoutes(routes, pathname)
    ?.filter(({ route }) => (route.handle as RouteHandle | undefined)?.title)
    .at(-1);
  if (!match) return undefined;
  const title = (match.route.handle as RouteHandle).title;
  return typeof title === "function" ? title(match.params, { keyHolder }) : title;
};

/** A memory router over the app's table, settled after its first navigation. */
async function openAt(path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  await new Promise<void>((resolve) => {
    if (router.state.initialized && router.state.navigation.state === "idle") resolve();
    const stop = router.subscribe((state) => {
      if (state.initialized && state.navigation.state === "idle") {
        stop();
        resolve();
      }
    });
  });
  return router;
}

describe("the app's route table", () => {
  it("finds the chain of layouts down to the page", () => {
    expect(chain("/")).toEqual(["", "", "index"]);
    expect(chain("/paste/abc")).toEqual(["", "", "paste/:slug"]);
    expect(chain("/file/abc")).toEqual(["", "", "file/:slug"]);
    expect(chain("/upload")).toEqual(["", "", "upload"]);
    expect(chain("/admin")).toEqual(["", "", "admin", "index"]);
    expect(chain("/admin/settings")).toEqual(["", "", "admin", ":module"]);
    expect(chain("/api-docs")).toEqual(["", "", "api-docs"]);
  });

  it("gives every level the same params, decoded", () => {
    expect(params("/paste/hello%20world")).toEqual({ slug: "hello world" });
    for (const match of matchRoutes(routes, "/admin/settings")!)
      expect(match.params).toEqual({ module: "settings" });
  });

  it("the explorer takes the rest of the path as its folder", () => {
    expect(params("/mount-explorer")).toEqual({ "*": "" });
    expect(params("/mount-explorer/team/q%201")).toEqual({ "*": "team/q 1" });
    expect(chain("/mount-explorer/a/b/c")).toEqual(["", "", "mount-explorer/*"]);
  });

  it("ignores a trailing slash and the case of fixed segments", () => {
    expect(chain("/admin/")).toEqual(["", "", "admin", "index"]);
    expect(chain("/ADMIN")).toEqual(["", "", "admin", "index"]);
    expect(params("/Paste/MixedCase")).toEqual({ slug: "MixedCase" });
  });

  it("anything unknown falls to the catch-all", () => {
    expect(chain("/paste")).toEqual(["", "", "*"]);
    expect(chain("/paste/a/b")).toEqual(["", "", "*"]);
    expect(chain("/admin/settings/extra")).toEqual(["", "", "*"]);
  });

  it("names each page's title, the panel's by who is signed in and by module", () => {
    expect(titleOf("/")).toBe("pages.home");
    expect(titleOf("/paste/x")).toBe("pages.paste");
    expect(titleOf("/mount-explorer/a")).toBe("pages.mountExplorer");
    expect(titleOf("/admin")).toBe("admin.adminPanel");
    expect(titleOf("/admin", true)).toBe("admin.userPanel");
    expect(titleOf("/admin/settings")).toBe("admin.modules.settings");
    expect(titleOf("/admin/nonsense", true)).toBe("admin.userPanel");
  });

  it("guards the signed-in areas and nothing else", () => {
    const guardedPaths = (pathname: string) =>
      matchRoutes(routes, pathname)
        ?.filter(({ route }) => route.loader)
        .map(({ route }) => route.path);
    expect(guardedPaths("/upload")).toEqual(["upload"]);
    expect(guardedPaths("/admin/settings")).toEqual(["admin"]);
    expect(guardedPaths("/mount-explorer/x")).toEqual(["mount-explorer/*"]);
    expect(guardedPaths("/paste/x")).toEqual([]);
    expect(guardedPaths("/")).toEqual([]);
  });

  it("sends an unknown address to Home in place of the entry asked for", async () => {
    const router = await openAt("/no/such/page");
    expect(router.state.location.pathname).toBe("/");
    expect(router.state.historyAction).toBe("REPLACE");
    router.dispose();
  });
});

describe("guards as loaders", () => {
  const args = (url: string, routeParams = {}) =>
    ({ request: new Request(url), params: routeParams }) as unknown as LoaderFunctionArgs;

  it("a guard's answer redirects; no answer lets the page open", async () => {
    const seen: { path: string; search: string }[] = [];
    const { loader } = guarded(({ params, url }) => {
      seen.push({ path: params["*"] ?? "", search: url.search });
      return params["*"] === "secret" ? "/mount-explorer/team?view=grid" : null;
    });
    const redirected = (await loader(
      args("https://clip.test/mount-explorer/secret?view=grid", { "*": "secret" }),
    )) as Response | null;
    expect(redirected?.status).toBe(302);
    expect(redirected?.headers.get("Location")).toBe("/mount-explorer/team?view=grid");
    expect(await loader(args("https://clip.test/mount-explorer/team", { "*": "team" }))).toBeNull();
    expect(seen).toEqual([
      { path: "secret", search: "?view=grid" },
      { path: "team", search: "" },
    ]);
  });

  it("runs again on every navigation inside its route", () => {
    expect(guarded(() => null).shouldRevalidate()).toBe(true);
  });
});
