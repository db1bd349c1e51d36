import { describe, expect, it } from "vitest";
import { isActivePath, isPlainClick } from "./links";
import { matchRoutes, type RouteObject } from "./match";

// The shape of the app's own table: a root layout, a pathless data layout, pages.
const home: RouteObject = { index: true };
const paste: RouteObject = { path: "paste/:slug" };
const adminIndex: RouteObject = { index: true };
const adminModule: RouteObject = { path: ":module" };
const admin: RouteObject = { path: "admin", children: [adminIndex, adminModule] };
const explorer: RouteObject = { path: "mount-explorer/*" };
const rest: RouteObject = { path: "*" };
const data: RouteObject = { children: [home, paste, admin, explorer, rest] };
const root: RouteObject = { children: [data] };
const routes = [root];

const chain = (pathname: string) => matchRoutes(routes, pathname)?.map((m) => m.route);
const params = (pathname: string) => matchRoutes(routes, pathname)?.[0]?.params;

describe("matching paths", () => {
  it("finds the chain of layouts down to the page", () => {
    expect(chain("/")).toEqual([root, data, home]);
    expect(chain("/paste/abc")).toEqual([root, data, paste]);
    expect(chain("/admin")).toEqual([root, data, admin, adminIndex]);
    expect(chain("/admin/settings")).toEqual([root, data, admin, adminModule]);
  });

  it("gives every level the same params, decoded", () => {
    expect(params("/paste/hello%20world")).toEqual({ slug: "hello world" });
    const matches = matchRoutes(routes, "/admin/settings")!;
    for (const match of matches) expect(match.params).toEqual({ module: "settings" });
  });

  it("a splat takes the rest of the path, nothing included, each segment decoded", () => {
    expect(params("/mount-explorer")).toEqual({ "*": "" });
    expect(params("/mount-explorer/team/q%201")).toEqual({ "*": "team/q 1" });
    expect(chain("/mount-explorer/a/b/c")).toEqual([root, data, explorer]);
  });

  it("ignores a trailing or doubled slash and the case of fixed segments", () => {
    expect(chain("/admin/")).toEqual([root, data, admin, adminIndex]);
    expect(chain("//paste//x")).toEqual([root, data, paste]);
    expect(chain("/ADMIN")).toEqual([root, data, admin, adminIndex]);
    expect(params("/Paste/MixedCase")).toEqual({ slug: "MixedCase" });
  });

  it("routes are tried in order: anything unknown falls to the catch-all", () => {
    expect(chain("/paste")).toEqual([root, data, rest]);
    expect(chain("/paste/a/b")).toEqual([root, data, rest]);
    expect(chain("/admin/settings/extra")).toEqual([root, data, rest]);
    expect(params("/no/such/page")).toEqual({ "*": "no/such/page" });
  });

  it("without a catch-all, an unknown path matches nothing; a bad escape stays as typed", () => {
    expect(matchRoutes([{ path: "a" }], "/b")).toBeNull();
    expect(matchRoutes([{ path: "a", children: [{ path: "b" }] }], "/a")).toBeNull();
    expect(params("/paste/100%")).toEqual({ slug: "100%" });
  });
});

describe("links", () => {
  const click = {
    button: 0,
    defaultPrevented: false,
    metaKey: false,
    altKey: false,
    ctrlKey: false,
    shiftKey: false,
  };

  it("only a plain left click on a link for this tab is the app's to follow", () => {
    expect(isPlainClick(click, undefined)).toBe(true);
    expect(isPlainClick(click, "_self")).toBe(true);
    expect(isPlainClick(click, "_blank")).toBe(false);
    expect(isPlainClick({ ...click, button: 1 }, undefined)).toBe(false);
    expect(isPlainClick({ ...click, ctrlKey: true }, undefined)).toBe(false);
    expect(isPlainClick({ ...click, metaKey: true }, undefined)).toBe(false);
    expect(isPlainClick({ ...click, shiftKey: true }, undefined)).toBe(false);
    expect(isPlainClick({ ...click, altKey: true }, undefined)).toBe(false);
    expect(isPlainClick({ ...click, defaultPrevented: true }, undefined)).toBe(false);
  });

  it("a navigation link is active on its page and below it, unless it must match exactly", () => {
    expect(isActivePath("/admin", "/admin")).toBe(true);
    expect(isActivePath("/admin/settings", "/admin")).toBe(true);
    expect(isActivePath("/admin/", "/admin")).toBe(true);
    expect(isActivePath("/administration", "/admin")).toBe(false);
    expect(isActivePath("/admin/settings", "/admin", true)).toBe(false);
    expect(isActivePath("/", "/", true)).toBe(true);
    expect(isActivePath("/upload", "/", true)).toBe(false);
    expect(isActivePath("/mount-explorer/a", "/mount-explorer?x=1")).toBe(true);
  });
});
