/**
 * The one place that turns thrown errors into JSON responses.
 */
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import { ZodError } from "zod";
import { isAppError } from "../../errors";
import type { Logger } from "../../logger";
import { formatZodError } from "../body";
import { fail } from "../envelope";
import { clientGone } from "../node-exchange";
import type { AppEnv } from "../types";

/** Errors whose details the client needs in `data` (others keep theirs for the log). */
const DETAILED_ERRORS = new Set(["folder_locked", "second_factor_required"]);

/** The app's onError: `log` receives the unexpected errors, with the request id. */
export const errorHandler = (log: Logger) => (err: Error, c: Context<AppEnv>) => {
  if (isAppError(err)) {
    // A failure on our side or upstream: the client gets our sentence, the log what happened.
    if (err.status >= 500) log.warn({ reqId: c.get("requestId"), err, details: err.details }, err.message);
    for (const [name, value] of Object.entries(err.headers ?? {})) c.header(name, value);
    // A locked folder names itself, so the client knows which password to ask for; a password
    // that needs a second factor hands out the challenge to answer.
    const details = err.status === 400 || DETAILED_ERRORS.has(err.error) ? err.details : undefined;
    return fail(c, err.status, err.error, err.message, details);
  }
  if (err instanceof ZodError) return fail(c, 400, "validation_failed", formatZodError(err));
  if (err instanceof HTTPException) {
    const status = err.status;
    if (status === 413) return fail(c, 413, "content_too_large", "Content too large");
    return fail(
      c,
      status,
      status === 404 ? "not_found" : "http_error",
      err.message || `HTTP error ${status}`,
    );
  }
  // Nobody will read this answer; the server has logged the abort or timeout at info.
  if (clientGone(c)) return fail(c, 400, "request_aborted", "The client closed the connection");
  log.error({ reqId: c.get("requestId"), err }, "Unhandled error");
  return fail(c, 500, "internal_error", "Internal server error");
};
