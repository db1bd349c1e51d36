import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { AppError } from "../../errors";
import { createLogger } from "../../logger";
import type { AppEnv } from "../types";
import { errorHandler } from "./error-handler";

function appLoggingTo(lines: string[]) {
  const app = new Hono<AppEnv>();
  app.onError(errorHandler(createLogger("info", { write: (line) => lines.push(line) })));
  app.use("*", async (c, next) => {
    c.set("requestId", "req-42");
    await next();
  });
  app.get("/boom", () => {
    throw new Error("database exploded: secret detail");
  });
  app.get("/gone", () => {
    throw new AppError(410, "paste_expired", "This paste has expired");
  });
  return app;
}

describe("errors become responses", () => {
  it("an unexpected error is a 500 envelope without details, logged once with the request id", async () => {
    const lines: string[] = [];
    const res = await appLoggingTo(lines).request("/boom");
    expect(res.status).toBe(500);
    const body = await res.json();
    expect(body).toEqual({
      code: 500,
      message: "Internal server error",
      success: false,
      data: null,
      error: "internal_error",
    });
    expect(JSON.stringify(body)).not.toContain("secret detail");
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0]!);
    expect(line.level).toBe(50);
    expect(line.reqId).toBe("req-42");
    expect(line.msg).toBe("Unhandled error");
    expect(line.err.message).toBe("database exploded: secret detail");
  });

  it("an AppError keeps its status and id and is not logged as a failure", async () => {
    const lines: string[] = [];
    const res = await appLoggingTo(lines).request("/gone");
    expect(res.status).toBe(410);
    expect(await res.json()).toMatchObject({ success: false, error: "paste_expired" });
    expect(lines).toHaveLength(0);
  });
});
