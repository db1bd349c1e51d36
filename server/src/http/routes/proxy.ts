/**
 * GET /api/p/<mount path>/<file>: the public proxy of mounts with web proxy
 * on, and the target of signed file links.
 * No authentication; access is decided by FsLinks.openProxied.
 */
import { type Context, Hono } from "hono";
import { ANONYMOUS } from "../../auth/principal";
import type { AppContext } from "../../context";
import { invalidPath } from "../../storage/errors";
import { described } from "../route-doc";
import { serveObject } from "../serve-object";
import { accessClientOf } from "../share-visitor";
import type { AppEnv } from "../types";

const PREFIX = "/api/p";

/**
 * The virtual path from the raw URL, each segment decoded exactly once. A
 * segment that decodes to a separator (`%2f`, `%5c`) is refused; dot segments
 * were already resolved by the URL parser, and the path rules refuse the rest.
 */
function proxiedPath(c: Context): string {
  const raw = new URL(c.req.url).pathname;
  const rest = raw.startsWith(`${PREFIX}/`) ? raw.slice(PREFIX.length + 1) : "";
  const segments = rest.split("/").map((segment) => {
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      throw invalidPath("Path is not valid URL encoding");
    }
    if (decoded.includes("/") || decoded.includes("\\"))
      throw invalidPath("Path must not contain encoded separators");
    return decoded;
  });
  return `/${segments.filter((s) => s !== "").join("/")}`;
}

export function proxyRoutes(ctx: AppContext) {
  const app = new Hono<AppEnv>();

  app.get(
    "/p/*",
    described(
      (w) => ({
        summary: "A mounted file through the server (proxy links)",
        errors: [
          ...w.fsPathErrors,
          ...w.visitorDownloadErrors,
          "unauthorized",
          "signature_required",
          "signature_expired",
          "malformed_signature",
          "invalid_range",
          "range_not_satisfiable",
        ],
        tag: "File system",
        access: "public",
        file: "bytes",
      }),
      async (c) => {
        const { target, entry, visitor } = await ctx.fs.links.openProxied(
          proxiedPath(c),
          c.req.query("sign"),
        );
        const inline = c.req.query("download") !== "true";
        if (visitor) {
          const kind = inline ? "preview" : "download";
          await ctx.fs.visitorDownloads.admit(ANONYMOUS, [target.path], kind, accessClientOf(c), entry.size);
        }
        return serveObject(c, target.driver, target.subPath, {
          filename: entry.name,
          contentType: entry.contentType,
          disposition: inline ? "inline" : "attachment",
          entry,
        });
      },
    ),
  );

  return app;
}
