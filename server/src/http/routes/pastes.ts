/**
 * Paste routes. Visitor routes: /paste/:slug (GET view, POST password) and
 * /raw/:slug (text/plain). Owner routes under /pastes need TEXT.
 */
import {
  createPasteRequest,
  idListRequest,
  onFirstUse,
  PASTE_MAX_BYTES,
  PASTES_DEFAULT_LIMIT,
  Permission,
  pastePasswordRequest,
  updatePasteRequest,
} from "@clipshare/shared";
import { Hono } from "hono";
import { z } from "zod";
import { requireAdmin, requirePermission } from "../../auth/policy";
import type { AppContext } from "../../context";
import { isAppError } from "../../errors";
import { parseWith, readJson } from "../body";
import { ok, okAliased, okRepeatingData, plainTextError } from "../envelope";
import { setHeader } from "../node-exchange";
import { described } from "../route-doc";
import { logAccess, mayCountView, noStore, visitor } from "../share-visitor";
import type { AppEnv } from "../types";
import { RESPONSE_ALIASES } from "../wire-aliases";

/** JSON around a 10 MB paste (escapes included) still fits. */
const PASTE_BODY_LIMIT = PASTE_MAX_BYTES * 2 + 64 * 1024;

const listQuery = onFirstUse(() =>
  z.object({
    page: z.coerce.number().int().min(1).optional(),
    limit: z.coerce.number().int().min(1).max(200).optional(),
    offset: z.coerce.number().int().min(0).optional(),
    search: z.string().trim().max(200).optional(),
    q: z.string().trim().max(200).optional(),
    created_by: z.string().max(200).optional(),
    /** Administrators: only this user's. */
    owner_id: z.string().max(200).optional(),
    expired: z.enum(["true", "false"]).optional(),
  }),
);

/** A new record each time: the Node adapter adds Content-Length to the one it is given. */
const plainText = () => ({ "Content-Type": "text/plain; charset=utf-8" });

/** What a delivered paste weighs on the wire (its text, UTF-8). */
const contentBytes = (row: { content: string }) => Buffer.byteLength(row.content, "utf8");

export function pasteRoutes(ctx: AppContext) {
  const app = new Hono<AppEnv>();
  const pastes = ctx.pastes;

  app.post(
    "/paste",
    described(
      (w) => ({
        summary: "Create a paste",
        errors: ["slug_taken", "invalid_expiry"],
        tag: "Pastes",
        access: "key",
        permissions: ["TEXT"],
        body: w.createPasteRequest,
        data: w.createdPaste,
      }),
      async (c) => {
        const principal = c.get("principal");
        requirePermission(principal, Permission.TEXT);
        const body = await readJson(c, createPasteRequest, PASTE_BODY_LIMIT);
        const created = await pastes.create(principal, body);
        return okAliased(c, created, RESPONSE_ALIASES.paste, "Paste created", 201);
      },
    ),
  );

  app.get(
    "/paste/:slug",
    described(
      (w) => ({
        summary: "View a paste (counts a view)",
        errors: [...w.pasteVisitErrors],
        tag: "Pastes",
        access: "public",
        data: w.pasteVisit,
      }),
      async (c) => {
        const { principal, slug } = visitor(c);
        const { visit, delivered } = await pastes.view(principal, slug, { countView: mayCountView(c) });
        if (delivered) logAccess(c, ctx.accessLog, delivered, "paste", "page_view", contentBytes(delivered));
        noStore(c);
        setHeader(c, "X-Robots-Tag", "noindex");
        return okRepeatingData(c, visit, {}, "Fetched", 200, RESPONSE_ALIASES.paste);
      },
    ),
  );

  app.post(
    "/paste/:slug",
    described(
      (w) => ({
        summary: "Open a password-protected paste",
        errors: [...w.pasteVisitErrors, "password_not_required"],
        tag: "Pastes",
        access: "public",
        body: w.pastePasswordRequest,
        data: w.pasteVisit,
      }),
      async (c) => {
        const body = await readJson(c, pastePasswordRequest);
        const { principal, ...at } = visitor(c);
        const { visit, delivered } = await pastes.unlock(principal, { ...at, password: body.password });
        if (delivered) logAccess(c, ctx.accessLog, delivered, "paste", "page_view", contentBytes(delivered));
        noStore(c);
        // The visitor typed this password a moment ago; 0.7.3 pages build their raw link from it.
        const extra = { plain_password: body.password };
        return okRepeatingData(c, visit, extra, "Password verified", 200, RESPONSE_ALIASES.paste);
      },
    ),
  );

  app.get(
    "/raw/:slug",
    described(
      (w) => ({
        summary: "A paste as plain text",
        errors: [...w.pasteVisitErrors, "encrypted_paste"],
        tag: "Pastes",
        access: "public",
        file: "text",
      }),
      async (c) => {
        const { principal, slug, clientIp } = visitor(c);
        noStore(c);
        setHeader(c, "X-Robots-Tag", "noindex");
        // Served so that it can never run as a page on our origin.
        setHeader(c, "Content-Security-Policy", "sandbox; default-src 'none'");
        try {
          const {
            row,
            content,
            visitor: delivered,
          } = await pastes.raw(
            principal,
            slug,
            { password: c.req.query("password"), token: c.req.query("token") },
            { countView: mayCountView(c), clientIp },
          );
          setHeader(c, "Content-Disposition", `inline; filename="${slug}.txt"`);
          if (c.req.method === "HEAD") return c.body(null, 200, plainText());
          if (content === null)
            return c.body("This paste is available at its ClipShare link.\n", 200, plainText());
          if (delivered) logAccess(c, ctx.accessLog, row, "paste", "raw", contentBytes(row));
          return c.body(content, 200, plainText());
        } catch (e) {
          // Not a missing page but a paste that has no raw form: the JSON envelope says why.
          if (isAppError(e) && e.error === "encrypted_paste") throw e;
          return plainTextError(c, e);
        }
      },
    ),
  );

  app.get(
    "/pastes",
    described(
      (w) => ({
        summary: "List own pastes (the admin: all)",
        tag: "Pastes",
        access: "key",
        permissions: ["TEXT"],
        query: w.pageQuery,
        data: w.list(w.pasteListRow),
      }),
      async (c) => {
        const principal = c.get("principal");
        requirePermission(principal, Permission.TEXT);
        const q = parseWith(listQuery, c.req.query());
        const limit = q.limit ?? PASTES_DEFAULT_LIMIT;
        const page = q.page ?? 1;
        const offset = q.offset ?? (page - 1) * limit;
        const { items, total } = await pastes.list(principal, {
          limit,
          offset,
          search: q.search || q.q || undefined,
          createdBy: q.created_by,
          ownerId: q.owner_id,
          expired: q.expired === undefined ? undefined : q.expired === "true",
        });
        return c.json({
          code: 200,
          message: "Fetched",
          success: true,
          data: items,
          pagination: {
            total,
            limit,
            offset,
            page: Math.floor(offset / limit) + 1,
            totalPages: Math.max(1, Math.ceil(total / limit)),
            hasMore: offset + items.length < total,
          },
        });
      },
    ),
  );

  app.delete(
    "/pastes/batch-delete",
    described(
      (w) => ({
        summary: "Delete pastes",
        tag: "Pastes",
        access: "key",
        permissions: ["TEXT"],
        body: w.idListRequest,
        data: w.counted("deleted"),
      }),
      async (c) => {
        const principal = c.get("principal");
        requirePermission(principal, Permission.TEXT);
        const { ids } = await readJson(c, idListRequest);
        const deleted = await pastes.deleteMany(principal, ids);
        return ok(c, { deleted }, `Deleted ${deleted} shares`);
      },
    ),
  );

  app.post(
    "/pastes/clear-expired",
    described(
      (w) => ({
        summary: "Delete own expired pastes",
        tag: "Pastes",
        access: "key",
        permissions: ["TEXT"],
        data: w.counted("cleared"),
      }),
      async (c) => {
        const principal = c.get("principal");
        requirePermission(principal, Permission.TEXT);
        const cleared = await pastes.clearExpired(principal);
        return ok(c, { cleared }, `Cleared ${cleared} expired shares`);
      },
    ),
  );

  app.post(
    "/admin/pastes/clear-expired",
    described(
      (w) => ({
        summary: "Delete every expired paste",
        tag: "Pastes",
        access: "admin",
        data: w.counted("cleared"),
      }),
      async (c) => {
        const principal = c.get("principal");
        requireAdmin(principal);
        const cleared = await pastes.clearExpired(principal);
        return ok(c, { cleared }, `Cleared ${cleared} expired shares`);
      },
    ),
  );

  app.get(
    "/pastes/:id",
    described(
      (w) => ({
        summary: "One paste with its content",
        errors: ["paste_not_found"],
        tag: "Pastes",
        access: "key",
        permissions: ["TEXT"],
        data: w.pasteDetail,
      }),
      async (c) => {
        const principal = c.get("principal");
        requirePermission(principal, Permission.TEXT);
        const detail = await pastes.getForOwner(principal, c.req.param("id")!);
        return okAliased(c, detail, RESPONSE_ALIASES.paste, "Fetched");
      },
    ),
  );

  app.put(
    "/pastes/:id",
    described(
      (w) => ({
        summary: "Edit a paste",
        errors: ["paste_not_found", "slug_taken", "invalid_expiry", "nothing_to_update", "encrypted_paste"],
        tag: "Pastes",
        access: "key",
        permissions: ["TEXT"],
        body: w.updatePasteRequest,
        data: w.pasteListRow,
      }),
      async (c) => {
        const principal = c.get("principal");
        requirePermission(principal, Permission.TEXT);
        const body = await readJson(c, updatePasteRequest, PASTE_BODY_LIMIT);
        return ok(c, await pastes.update(principal, c.req.param("id")!, body), "Paste updated");
      },
    ),
  );

  return app;
}
