/**
 * Response headers that keep the web app and inline PDFs from being abused by
 * other pages: a Content-Security-Policy and the legacy X-Frame-Options.
 *
 * The app may only run script files from this origin (no inline script, no
 * eval), so injected markup cannot execute even if it slipped past the
 * Markdown sanitizer; that is what makes keeping the admin token in
 * localStorage acceptable. Other sources stay open where the app needs them:
 * presigned storage URLs and a runtime-configured API origin (connect, media,
 * frames), remote images in Markdown. Styles allow inline: the editor and
 * dialogs inject <style> elements, and styles cannot run script.
 */
import type { Config } from "../config";

/** `X-Frame-Options` equivalent of the frame-ancestors list, when one exists. */
function frameOptions(ancestors: string[]): string | null {
  if (ancestors.length === 1 && ancestors[0] === "'none'") return "DENY";
  if (ancestors.length === 1 && ancestors[0] === "'self'") return "SAMEORIGIN";
  // A list of origins has no X-Frame-Options form; browsers that honour CSP use frame-ancestors.
  return null;
}

export function webAppSecurityHeaders(config: Config): Record<string, string> {
  const csp = [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: http: https:",
    "media-src 'self' blob: http: https:",
    "font-src 'self' data:",
    "connect-src 'self' http: https:",
    // blob: for PDFs of end-to-end encrypted shares, decrypted in the page (a Blob typed application/pdf).
    "frame-src 'self' blob: http: https:",
    "worker-src 'self'",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    `frame-ancestors ${config.frameAncestors.join(" ")}`,
  ].join("; ");
  const headers: Record<string, string> = { "Content-Security-Policy": csp };
  const xfo = frameOptions(config.frameAncestors);
  if (xfo) headers["X-Frame-Options"] = xfo;
  return headers;
}

/**
 * Inline PDFs: the browser's viewer must render them (a `sandbox` policy would
 * stop it), but the document itself may load nothing, run nothing and submit
 * nothing, and only the app (this origin, or an origin allowed by CORS_ORIGINS)
 * may frame it.
 */
export function pdfSecurityPolicy(config: Pick<Config, "corsOrigins">): string {
  const allowed = config.corsOrigins.includes("*") ? [] : config.corsOrigins;
  return [
    "default-src 'none'",
    "object-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors 'self'${allowed.map((o) => ` ${o}`).join("")}`,
  ].join("; ");
}

/**
 * Small HTML pages the server writes itself (a deletion confirmation, a WebDAV
 * folder listing): they run no script and load nothing, keep inline styles,
 * post forms only back to this origin, and may be framed only as the app may.
 * `sandbox` also gives the page an opaque origin (for pages without a form).
 */
export function serverPageSecurityHeaders(
  config: Pick<Config, "frameAncestors">,
  options: { sandbox?: boolean } = {},
): Record<string, string> {
  const csp = [
    "default-src 'none'",
    "style-src 'unsafe-inline'",
    "base-uri 'none'",
    "form-action 'self'",
    `frame-ancestors ${config.frameAncestors.join(" ")}`,
    ...(options.sandbox ? ["sandbox"] : []),
  ].join("; ");
  const headers: Record<string, string> = {
    "Content-Security-Policy": csp,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
  };
  const xfo = frameOptions(config.frameAncestors);
  if (xfo) headers["X-Frame-Options"] = xfo;
  return headers;
}
