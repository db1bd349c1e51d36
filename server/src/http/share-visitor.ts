/**
 * What every visitor route of a share (paste or file) reads from the request
 * and sets on the answer, so the rules of a visit live in one place:
 * - HEAD never delivers content and a link-preview bot never uses a view;
 * - visitor answers are never stored by caches (they may carry content, a
 *   token or a view count that is stale a moment later).
 */
import type { Context } from "hono";
import { isLinkPreviewBot } from "../domain/shares/preview-bots";
import type { AppEnv } from "./types";

type Ctx = Context<AppEnv>;

/** The request comes from a link unfurler, chat previewer or crawler. */
export const isPreviewBot = (c: Ctx): boolean => isLinkPreviewBot(c.req.header("user-agent"));

/** The request may use a view: a GET from something other than a link-preview bot. */
export const mayCountView = (c: Ctx): boolean => c.req.method === "GET" && !isPreviewBot(c);

/** The slug, principal and client address of a visitor's request. */
export function visitor(c: Ctx) {
  return { slug: c.req.param("slug")!, principal: c.get("principal"), clientIp: c.get("clientIp") };
}

/** Marks a visitor answer as never cacheable. */
export function noStore(c: Ctx): void {
  c.header("Cache-Control", "no-store");
}
