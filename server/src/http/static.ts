/**
 * Serves the built web app: hashed assets with a one-year immutable cache,
 * index.html (and the service worker) revalidated on every load, and the SPA
 * fallback for client-side routes. /config.js carries runtime settings.
 */
import { createReadStream, readFileSync, statSync } from "node:fs";
import path from "node:path";
import type { Context, Hono } from "hono";
import { compress } from "hono/compress";
import type { AppContext } from "../context";
import { READ_CHUNK_BYTES } from "../storage/streams";
import { nodeBody } from "./node-body";
import { webAppSecurityHeaders } from "./security-headers";
import type { AppEnv } from "./types";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".webmanifest": "application/manifest+json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".ico": "image/x-icon",
  ".webp": "image/webp",
  ".woff2": "font/woff2",
  ".woff": "font/woff",
  ".txt": "text/plain; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".wasm": "application/wasm",
};

const PLACEHOLDER = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>ClipShare</title>
<meta name="viewport" content="width=device-width,initial-scale=1"></head>
<body style="font-family:system-ui;margin:3rem"><h1>ClipShare</h1>
<p>The server is running. The web app has not been built yet: run <code>npm run build</code>.</p></body></html>`;

function isApiPath(p: string) {
  return p === "/api" || p.startsWith("/api/") || p === "/dav" || p.startsWith("/dav/");
}

export function mountWebApp(app: Hono<AppEnv>, ctx: AppContext) {
  const root = ctx.config.webDistDir;
  // Re-read index.html when a new build replaced it, so a running server never
  // points browsers at hashed assets that no longer exist.
  let cachedIndex: { mtimeMs: number; body: string } | null = null;
  const indexHtml = (): string | null => {
    if (!root) return null;
    const file = path.join(root, "index.html");
    try {
      const { mtimeMs } = statSync(file);
      if (cachedIndex?.mtimeMs !== mtimeMs) cachedIndex = { mtimeMs, body: readFileSync(file, "utf8") };
      return cachedIndex.body;
    } catch {
      return null;
    }
  };

  app.get("/config.js", (c) => {
    const runtime = { apiBaseUrl: "", version: "0.7.3" };
    c.header("Cache-Control", "no-cache");
    c.header("Content-Type", "text/javascript; charset=utf-8");
    return c.body(`window.__CLIPSHARE_CONFIG__ = ${JSON.stringify(runtime)};\n`);
  });

  const sendIndex = (c: Context<AppEnv>) => {
    c.header("Cache-Control", "no-cache");
    c.header("Content-Type", "text/html; charset=utf-8");
    return c.body(indexHtml() ?? PLACEHOLDER);
  };

  const securityHeaders = webAppSecurityHeaders(ctx.config);
  app.use("*", async (c, next) => {
    if (isApiPath(c.req.path)) return next();
    await compress()(c, next);
    for (const [name, value] of Object.entries(securityHeaders)) c.header(name, value);
  });

  // The installed app's share target. Its service worker answers this POST; one reaching the
  // server means no worker took it (first visit, worker not yet active): send the user to the
  // app, which says nothing was received. The body is never read.
  app.post("/share-target", (c) => c.redirect("/?share-target=unavailable", 303));

  app.on(["GET", "HEAD"], "*", async (c, next) => {
    const urlPath = c.req.path;
    if (isApiPath(urlPath)) return next();
    if (!root || urlPath === "/" || urlPath === "/index.html") return sendIndex(c);
    let decoded: string;
    try {
      decoded = decodeURIComponent(urlPath);
    } catch {
      return sendIndex(c);
    }
    const file = path.resolve(root, `.${decoded}`);
    if (decoded.includes("\0") || !file.startsWith(root + path.sep)) return sendIndex(c);
    let stat: ReturnType<typeof statSync> | undefined;
    try {
      stat = statSync(file);
    } catch {
      stat = undefined;
    }
    if (!stat?.isFile()) {
      // A missing hashed asset must 404 (a stale tab would otherwise parse HTML as JS).
      if (decoded.startsWith("/assets/")) return c.text("Not found", 404);
      return sendIndex(c);
    }
    const ext = path.extname(file).toLowerCase();
    const immutable = decoded.startsWith("/assets/");
    c.header("Content-Type", TYPES[ext] ?? "application/octet-stream");
    c.header("Content-Length", String(stat.size));
    c.header("Cache-Control", immutable ? "public, max-age=31536000, immutable" : "no-cache");
    c.header("Last-Modified", stat.mtime.toUTCString());
    c.header("X-Content-Type-Options", "nosniff");
    if (c.req.method === "HEAD") return c.body(null);
    return c.body(nodeBody(c, createReadStream(file, { highWaterMark: READ_CHUNK_BYTES })));
  });
}
