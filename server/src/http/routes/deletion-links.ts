/**
 * Deletion links for uploads made by tools (ShareX, Flameshot + curl): the
 * upload answer carries `share_url` and `deletion_url`, which ShareX keeps in
 * its history. The link is `/api/share-delete/<id>?token=<HMAC of the id>`;
 * opening it shows a confirm page (a GET must not delete: link previews and
 * prefetchers open links), and its POST deletes the share as its creator.
 * The token never expires, but dies with the share.
 */
import { Permission } from "@clipshare/shared";
import { type Context, Hono } from "hono";
import type { Owned } from "../../auth/creator";
import type { Principal } from "../../auth/principal";
import type { AppContext } from "../../context";
import { notFound } from "../../errors";
import { constantTimeEqual, deriveKey, hmacSha256 } from "../../lib/crypto";
import { ok } from "../envelope";
import { publicOrigin } from "../request-origin";
import { described } from "../route-doc";
import { serverPageSecurityHeaders } from "../security-headers";
import type { AppEnv } from "../types";

export class DeletionLinks {
  private readonly key: Buffer;
  constructor(secret: Buffer) {
    this.key = deriveKey(secret, "deletion-link");
  }

  token(fileId: string): string {
    return hmacSha256(this.key, `file:${fileId}`).toString("base64url");
  }

  verify(fileId: string, token: string | undefined): boolean {
    return !!token && constantTimeEqual(token, this.token(fileId));
  }

  /** The fields tools read from an upload answer: absolute share page and deletion link. */
  links(origin: string, file: { id: string; slug: string }) {
    return {
      share_url: `${origin}/file/${encodeURIComponent(file.slug)}`,
      deletion_url: `${origin}/api/share-delete/${encodeURIComponent(file.id)}?token=${this.token(file.id)}`,
    };
  }
}

/** The share's creator, recreated from its row: the signed link speaks for them. */
function creatorPrincipal({ created_by: createdBy, owner_id: ownerId }: Owned): Principal {
  if (createdBy.startsWith("apikey:")) {
    return {
      kind: "apiKey",
      key: {
        id: createdBy.slice("apikey:".length),
        name: "",
        permissions: Permission.FILE_SHARE,
        basicPath: "/",
        role: "GENERAL",
        isGuest: false,
        ownerId: ownerId ?? "",
        ownerName: "",
        ownerRole: "user",
      },
    };
  }
  return { kind: "admin", adminId: createdBy, username: "" };
}

const linkGone = () => notFound("This deletion link is invalid or the file is already gone", "not_found");

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

function page(title: string, body: string) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title></head><body style="font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem">${body}</body></html>`;
}

export function deletionLinkRoutes(ctx: AppContext) {
  const app = new Hono<AppEnv>();
  const links = new DeletionLinks(ctx.config.secretKey);
  // The links end up in screenshot tools, chats and mail: the pages must not be framed (clickjacking).
  const pageHeaders = serverPageSecurityHeaders(ctx.config);

  const findFile = async (c: Context<AppEnv>) => {
    const id = c.req.param("id") ?? "";
    if (!links.verify(id, c.req.query("token"))) throw linkGone();
    const row = await ctx.db
      .selectFrom("files")
      .select(["id", "filename", "created_by", "owner_id", "status"])
      .where("id", "=", id)
      .executeTakeFirst();
    if (row?.status !== "active") throw linkGone();
    return row;
  };

  app.get(
    "/share-delete/:id",
    described(
      (w) => ({
        summary: "The page a signed deletion link opens: asks before deleting",
        errors: ["invalid_signature", "file_not_found"],
        tag: "File shares",
        access: "public",
        query: w.z.object({ token: w.z.string() }),
        file: "html",
      }),
      async (c) => {
        const row = await findFile(c);
        const name = escapeHtml(row.filename);
        return c.html(
          page(
            "Delete file",
            `<h1>Delete “${name}”?</h1><p>The share link stops working for everyone.</p><form method="post"><button type="submit">Delete</button></form>`,
          ),
          200,
          pageHeaders,
        );
      },
    ),
  );

  app.post(
    "/share-delete/:id",
    described(
      (w) => ({
        summary: "Delete a file share with its signed deletion link (a page, or JSON when asked for)",
        errors: ["invalid_signature", "file_not_found"],
        tag: "File shares",
        access: "public",
        query: w.z.object({ token: w.z.string() }),
        data: w.z.strictObject({ id: w.z.string() }),
      }),
      async (c) => {
        const row = await findFile(c);
        const result = await ctx.fileShares.batchDelete(creatorPrincipal(row), {
          ids: [row.id],
          delete_mode: "both",
        });
        if (result.success !== 1) throw linkGone();
        if (c.req.header("accept")?.includes("application/json"))
          return ok(c, { id: row.id }, "File deleted");
        return c.html(
          page("File deleted", `<h1>“${escapeHtml(row.filename)}” is deleted.</h1>`),
          200,
          pageHeaders,
        );
      },
    ),
  );

  return app;
}

/** Origin-aware links for an upload answer. */
export function toolLinks(ctx: AppContext, c: Context<AppEnv>, file: { id: string; slug: string }) {
  return new DeletionLinks(ctx.config.secretKey).links(publicOrigin(c, ctx.config.trustProxy), file);
}
