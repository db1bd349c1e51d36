import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { okRepeatingData, okWithTopLevel } from "./envelope";

/** The text and content type of both ways of answering `data` repeated at the top level with `extra`. */
async function both(data: object, extra: Record<string, unknown>) {
  const app = new Hono();
  app.get("/single", (c) => okRepeatingData(c, data, extra, "Fetched"));
  app.get("/spread", (c) => okWithTopLevel(c, data, { ...data, ...extra }, "Fetched"));
  const [single, spread] = await Promise.all([app.request("/single"), app.request("/spread")]);
  expect(single.headers.get("content-type")).toBe(spread.headers.get("content-type"));
  return [await single.text(), await spread.text()] as const;
}

describe("okRepeatingData", () => {
  it("writes the same JSON text as the spread copy, key order included", async () => {
    const paste = { id: "p1", content: 'a "quoted"\nline é', expiresAt: null, maxViews: 3, views: 1 };
    const [single, spread] = await both(paste, { expires_at: null, max_views: 3 });
    expect(single).toBe(spread);
    expect(Object.keys(JSON.parse(single))).toEqual([
      "id",
      "content",
      "expiresAt",
      "maxViews",
      "views",
      "expires_at",
      "max_views",
      "code",
      "message",
      "success",
      "data",
    ]);
  });

  it("handles empty data or no extra fields", async () => {
    for (const [data, extra] of [
      [{}, {}],
      [{}, { a: 1 }],
      [{ status: "ok" }, {}],
    ] as const) {
      const [single, spread] = await both(data, extra);
      expect(single).toBe(spread);
    }
  });

  it("lets spread order decide when a key repeats (envelope keys always win)", async () => {
    const [single, spread] = await both({ a: 1, message: "inner", code: 7 }, { a: 2, success: false });
    expect(single).toBe(spread);
    expect(JSON.parse(single)).toMatchObject({ a: 2, code: 200, message: "Fetched", success: true });
  });
});
