/**
 * A route group loaded on its first request. Its module is imported then (in the
 * bundle it is a chunk file of its own), so a server that is never asked for it
 * never parses, compiles or runs it. The group is a Hono app of its own: the request's
 * variables (request id, client IP, principal) go in and come back out, and its errors
 * go through the same handler as everyone else's.
 */
import { type Context, type ErrorHandler, Hono } from "hono";
import type { AppEnv } from "./types";

type Variables = Record<string, unknown>;
type CarryEnv = { lazyRoutesOuter?: Context<AppEnv> };

function copyVariables(from: Context<AppEnv>, to: Context<AppEnv>) {
  const set = to.set as (key: string, value: unknown) => void;
  for (const [key, value] of Object.entries(from.var as Variables)) set(key, value);
}

/** Serves `prefix` and everything below it with the group `load` resolves to, imported once. */
export function mountOnFirstRequest(
  app: Hono<AppEnv>,
  prefix: string,
  load: () => Promise<Hono<AppEnv>>,
  onError: ErrorHandler<AppEnv>,
) {
  let group: Promise<Hono<AppEnv>> | undefined;
  const assemble = async () => {
    const routes = await load();
    const inner = new Hono<AppEnv>();
    inner.onError(onError);
    inner.use("*", async (c, next) => {
      const outer = (c.env as CarryEnv).lazyRoutesOuter;
      if (outer) copyVariables(outer, c);
      await next();
      if (outer) copyVariables(c, outer);
    });
    inner.route(prefix, routes);
    return inner;
  };
  const forward = async (c: Context<AppEnv>) => {
    group ??= assemble().catch((e) => {
      // A failed import (a chunk missing after a bad deploy) is retried by the next request.
      group = undefined;
      throw e;
    });
    const inner = await group;
    return inner.fetch(c.req.raw, { ...(c.env as object), lazyRoutesOuter: c });
  };
  app.all(prefix, forward);
  app.all(`${prefix}/*`, forward);
}
