/**
 * What every visitor route of a share (paste or file) reads from the request
 * and sets on the answer, so the rules of a visit live in one place:
 * - HEAD never delivers content and a link-preview bot never uses a view;
 * - visitor answers are never stored by caches (they may carry content, a
 *   token or a view count that is stale a moment later);
 * - every delivery to a visitor (never to the owner) goes to the access log.
 */
import type { AccessKind } from "@clipshare/shared";
import type { Context } from "hono";
import type { AccessClient, ShareAccessLog } from "../domain/shares/access-log";
import type { ShareKind } from "../domain/shares/access-tokens";
import { isLinkPreviewBot } from "../domain/shares/preview-bots";
import { requestHeader, setHeader } from "./node-exchange";
import type { AppEnv } from "./types";

type Ctx = Context<AppEnv>;

/** The request comes from a link unfurler, chat previewer or crawler. */
export const isPreviewBot = (c: Ctx): boolean => isLinkPreviewBot(requestHeader(c, "user-agent"));

/** The request may use a view: a GET from something other than a link-preview bot. */
export const mayCountView = (c: Ctx): boolean => c.req.method === "GET" && !isPreviewBot(c);

/** The slug, principal and client address of a visitor's request. */
export function visitor(c: Ctx) {
  return { slug: c.req.param("slug")!, principal: c.get("principal"), clientIp: c.get("clientIp") };
}

/** Who made the request, as the access log describes a visitor. */
export const accessClientOf = (c: Ctx): AccessClient => ({
  userAgent: requestHeader(c, "user-agent"),
  ip: c.get("clientIp"),
});

/** Marks a visitor answer as never cacheable. */
export function noStore(c: Ctx): void {
  setHeader(c, "Cache-Control", "no-store");
}

/**
 * Logs one delivery of a share to this visitor (the access log decides what
 * it keeps). `bytes`: body bytes sent, null where unknown.
 */
export function logAccess(
  c: Ctx,
  log: ShareAccessLog,
  share: { id: string; no_log: number },
  type: ShareKind,
  kind: AccessKind,
  bytes: number | null,
): void {
  log.record({ type, id: share.id, no_log: share.no_log }, kind, accessClientOf(c), bytes);
}
