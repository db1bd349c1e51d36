/**
 * Continuations of a counted view. The response that used up a view (a
 * download, or the metadata page that handed out tokened URLs) sets its
 * short-lived access token as a cookie scoped to that share's content URLs,
 * so the browser's follow-up requests (Range continuations, video seeking,
 * resumed downloads, 0.7.3 pages that rebuild the URL without its token) carry
 * it and do not count again. Clients without cookies pass it as `?token=`.
 */
import type { Context } from "hono";
import { generateCookie, getCookie } from "hono/cookie";
import { SHARE_TOKEN_TTL_SECONDS } from "../domain/shares/access-tokens";

const COOKIE = "clipshare_download";
const FILE_CONTENT_ROUTES = [
  "/api/file-view/",
  "/api/file-download/",
  "/api/office-preview/",
  "/api/file-thumbnail/",
] as const;

/** The paths a file share's visit continues on: its content routes. */
export const fileContentPaths = (slug: string): string[] =>
  FILE_CONTENT_ROUTES.map((route) => `${route}${encodeURIComponent(slug)}`);

/** A collection's visit continues on every route below its visitor path (its page, folders, items, ZIP). */
export const collectionContentPaths = (slug: string): string[] => [
  `/api/public/collections/${encodeURIComponent(slug)}`,
];

/** The access token a content request presents: `?token=` first, else the continuation cookie. */
export function continuationToken(c: Context): string | undefined {
  return c.req.query("token") || getCookie(c, COOKIE) || undefined;
}

/**
 * Adds the continuation cookies to the response a counted request gets
 * (streamed objects and redirects are built as Responses of their own), one
 * per path the visit goes on at (`fileContentPaths`, `collectionContentPaths`).
 * `origin`: the one clients reach us on; the cookie is Secure when that is https.
 */
export function withContinuationCookies(
  res: Response,
  grant: { paths: string[]; token: string },
  origin: string,
): Response {
  for (const path of grant.paths) {
    const cookie = generateCookie(COOKIE, grant.token, {
      path,
      httpOnly: true,
      sameSite: "Lax",
      secure: origin.startsWith("https:"),
      maxAge: SHARE_TOKEN_TTL_SECONDS,
    });
    res.headers.append("Set-Cookie", cookie);
  }
  return res;
}
