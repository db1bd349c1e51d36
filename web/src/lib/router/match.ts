import type { ComponentType } from "react";

/** Values of the `:name` segments and of the `*` splat (decoded), shared by every level of a match. */
export type Params = Record<string, string | undefined>;

/** What a guard sees: the params and the full URL being opened. */
export interface GuardArgs {
  params: Params;
  url: URL;
}

/** Runs before a route is shown: a path to go to instead, or nothing to let it open. */
export type Guard = (args: GuardArgs) => Promise<string | null> | string | null;

export interface RouteObject {
  /** Segments relative to the parent: `upload`, `paste/:slug`, `mount-explorer/*`, `*`. None: a layout. */
  path?: string;
  /** Matches the parent's own path exactly. */
  index?: boolean;
  /** Free data for the app (the page title). */
  handle?: unknown;
  guard?: Guard;
  Component?: ComponentType;
  /** The component's module, fetched before the route is first shown. */
  load?: () => Promise<ComponentType>;
  /** Shown in place of this route when it or a route inside it fails to load or render. */
  ErrorBoundary?: ComponentType;
  children?: RouteObject[];
}

export interface RouteMatch {
  route: RouteObject;
  params: Params;
}

const segmentsOf = (path: string): string[] => path.split("/").filter(Boolean);

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * Takes a route's own segments off the front of `rest` and records its params. Static
 * segments compare without case; `*` takes everything left, nothing included.
 * Returns what is left, or null when the route does not fit.
 */
function consume(route: RouteObject, rest: string[], params: Params): string[] | null {
  const pattern = segmentsOf(route.path ?? "");
  for (const [i, part] of pattern.entries()) {
    if (part === "*") {
      params["*"] = rest.slice(i).map(decode).join("/");
      return [];
    }
    const segment = rest[i];
    if (segment === undefined) return null;
    if (part.startsWith(":")) params[part.slice(1)] = decode(segment);
    else if (part.toLowerCase() !== segment.toLowerCase()) return null;
  }
  return rest.slice(pattern.length);
}

function walk(routes: RouteObject[], rest: string[], params: Params): RouteObject[] | null {
  for (const route of routes) {
    const own: Params = { ...params };
    const left = route.index ? rest : consume(route, rest, own);
    if (!left) continue;
    if (route.children) {
      const below = walk(route.children, left, own);
      if (below) {
        Object.assign(params, own);
        return [route, ...below];
      }
    } else if (left.length === 0) {
      Object.assign(params, own);
      return [route];
    }
  }
  return null;
}

/**
 * The routes, outermost first, that draw `pathname`, or null. Routes are tried in the
 * order declared (so `*` goes last); a route with children matches only through one of them.
 */
export function matchRoutes(routes: RouteObject[], pathname: string): RouteMatch[] | null {
  const params: Params = {};
  const chain = walk(routes, segmentsOf(pathname), params);
  return chain?.map((route) => ({ route, params })) ?? null;
}
