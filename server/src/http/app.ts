/**
 * Builds the Hono application for a context: middleware order, the /api
 * routers, error mapping, and the web app. Route modules are thin:
 * validate → authorize → call a domain service → present.
 */
import { FILE_REQUEST_TOKEN_HEADER } from "@clipshare/shared";
import { Hono } from "hono";
import { cors } from "hono/cors";
import type { AppContext } from "../context";
import { fail } from "./envelope";
import { mountOnFirstRequest } from "./lazy-routes";
import { authenticate } from "./middleware/authenticate";
import { errorHandler } from "./middleware/error-handler";
import { requestContext } from "./middleware/request-context";
import { downloadOffload } from "./offload";
import { accessLogRoutes } from "./routes/access-log";
import { accountRoutes } from "./routes/accounts";
import { apiKeyRoutes } from "./routes/api-keys";
import { authRoutes } from "./routes/auth";
import { collectionRoutes } from "./routes/collections";
import { dashboardRoutes } from "./routes/dashboard";
import { deletionLinkRoutes } from "./routes/deletion-links";
import { fileRequestRoutes } from "./routes/file-requests";
import { fileRoutes } from "./routes/files";
import { folderSettingsRoutes } from "./routes/folder-settings";
import { fsRoutes } from "./routes/fs";
import { metricsRoutes } from "./routes/metrics";
import { mountRoutes } from "./routes/mounts";
import { notificationRoutes } from "./routes/notifications";
import { openApiRoutes } from "./routes/openapi";
import { passkeyRoutes } from "./routes/passkeys";
import { pasteRoutes } from "./routes/pastes";
import { proxyRoutes } from "./routes/proxy";
import { publicFileRoutes } from "./routes/public-files";
import { secondFactorRoutes } from "./routes/second-factors";
import { settingsRoutes } from "./routes/settings";
import { ssoRoutes } from "./routes/sso";
import { storageConfigRoutes } from "./routes/storage-configs";
import { systemRoutes } from "./routes/system";
import { thumbnailRoutes } from "./routes/thumbnails";
import { uploadRoutes } from "./routes/uploads";
import { urlUploadRoutes } from "./routes/url-upload";
import { userRoutes } from "./routes/users";
import { mountWebApp } from "./static";
import type { AppEnv } from "./types";

const CORS_ALLOW_HEADERS = [
  "Content-Type",
  "Authorization",
  "X-API-KEY",
  "X-Custom-Auth-Key",
  "X-Request-Id",
  FILE_REQUEST_TOKEN_HEADER,
  "Depth",
  "Destination",
  "Overwrite",
  "If",
  "If-Match",
  "If-None-Match",
  "If-Modified-Since",
  "If-Unmodified-Since",
  "Lock-Token",
  "Timeout",
  "Content-Length",
  "Range",
  "X-Requested-With",
];

export function createApp(ctx: AppContext) {
  const app = new Hono<AppEnv>();
  const onError = errorHandler(ctx.log);
  app.onError(onError);
  // Every response: no MIME sniffing, no full URLs in Referer to other origins and, behind a
  // load balancer, which instance answered (for operators and the scale-out tests).
  const fixedHeaders: Array<[string, string]> = [
    ["X-Content-Type-Options", "nosniff"],
    ["Referrer-Policy", "strict-origin-when-cross-origin"],
  ];
  if (ctx.config.instanceName) fixedHeaders.push(["X-ClipShare-Instance", ctx.config.instanceName]);
  app.use("*", requestContext(ctx, fixedHeaders));
  if (ctx.config.downloadOffload) app.use("*", downloadOffload(ctx.config.downloadOffload));

  if (ctx.config.corsOrigins.length > 0) {
    const allowAll = ctx.config.corsOrigins.includes("*");
    const corsMiddleware = cors({
      origin: allowAll ? "*" : ctx.config.corsOrigins,
      allowHeaders: CORS_ALLOW_HEADERS,
      allowMethods: ["GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS", "PATCH"],
      exposeHeaders: [
        "ETag",
        "Content-Length",
        "Content-Disposition",
        "Content-Range",
        "X-Request-Id",
        "Retry-After",
      ],
      maxAge: 86400,
      credentials: !allowAll,
    });
    app.use("/api/*", corsMiddleware);
  }

  const api = new Hono<AppEnv>();
  api.use("*", authenticate(ctx));
  api.route("/", systemRoutes(ctx));
  api.route(
    "/",
    openApiRoutes(() => api.routes),
  );
  api.route("/", authRoutes(ctx));
  api.route("/", ssoRoutes(ctx));
  api.route("/", accountRoutes(ctx));
  api.route("/", secondFactorRoutes(ctx));
  api.route("/", passkeyRoutes(ctx));
  api.route("/", userRoutes(ctx));
  api.route("/admin/api-keys", apiKeyRoutes(ctx));
  api.route("/admin", settingsRoutes(ctx));
  api.route("/admin", dashboardRoutes(ctx));
  api.route("/", pasteRoutes(ctx));
  api.route("/s3-configs", storageConfigRoutes(ctx));
  api.route("/", fileRoutes(ctx));
  api.route("/", uploadRoutes(ctx));
  api.route("/", publicFileRoutes(ctx));
  api.route("/", mountRoutes(ctx));
  api.route("/", fsRoutes(ctx));
  api.route("/", folderSettingsRoutes(ctx));
  api.route("/", proxyRoutes(ctx));
  api.route("/", urlUploadRoutes(ctx));
  api.route("/", deletionLinkRoutes(ctx));
  api.route("/", thumbnailRoutes(ctx));
  api.route("/", accessLogRoutes(ctx));
  api.route("/", fileRequestRoutes(ctx));
  api.route("/", collectionRoutes(ctx));
  api.route("/", notificationRoutes(ctx));
  api.all("*", (c) => fail(c, 404, "not_found", "Requested resource not found"));
  app.route("/api", api);
  app.route("/", metricsRoutes(ctx));
  // WebDAV clients are rare next to the web app and the API: its code loads with its first request.
  mountOnFirstRequest(app, "/dav", async () => (await import("../webdav/routes")).webdavRoutes(ctx), onError);

  mountWebApp(app, ctx);
  app.notFound((c) => fail(c, 404, "not_found", "Requested resource not found"));
  return app;
}
