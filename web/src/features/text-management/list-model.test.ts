import { afterEach, describe, expect, it, vi } from "vitest";
import { pastesApi } from "../../lib/pastes/api";
import { creatorOf, expiredParam, viewsText } from "./list-model";

describe("paste list helpers", () => {
  it("maps the status filter to the expired parameter", () => {
    expect(expiredParam("all")).toBeUndefined();
    expect(expiredParam("active")).toBe(false);
    expect(expiredParam("expired")).toBe(true);
  });

  it("names the owner and the key that made a paste", () => {
    expect(creatorOf({ created_by: "3f2c-user-id", key_name: null, owner_name: "ann" })).toEqual({
      owner: "ann",
      key: null,
    });
    expect(creatorOf({ created_by: "apikey:k1", key_name: "ci", owner_name: "ann" })).toEqual({
      owner: "ann",
      key: { name: "ci", id: "k1" },
    });
    expect(creatorOf({ created_by: "apikey:gone", key_name: null })).toEqual({
      owner: null,
      key: { name: null, id: "gone" },
    });
  });

  it("shows views against the limit", () => {
    expect(viewsText({ views: 1, max_views: 2 })).toBe("1 / 2");
    expect(viewsText({ views: 7, max_views: null })).toBe("7 / ∞");
  });
});

describe("paste list call", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("reads rows from data and the top-level pagination", async () => {
    const calls: string[] = [];
    vi.stubGlobal("fetch", async (url: string) => {
      calls.push(url);
      return new Response(
        JSON.stringify({
          code: 200,
          message: "Fetched",
          success: true,
          data: [{ id: "a", slug: "s" }],
          pagination: { total: 21, limit: 10, offset: 10, page: 2, totalPages: 3, hasMore: true },
        }),
        { headers: { "content-type": "application/json" } },
      );
    });
    const page = await pastesApi.list({ page: 2, limit: 10, search: "ab", expired: false });
    expect(calls[0]).toBe("/api/pastes?page=2&limit=10&search=ab&expired=false");
    expect(page.items).toHaveLength(1);
    expect(page.pagination).toEqual({
      total: 21,
      limit: 10,
      offset: 10,
      page: 2,
      totalPages: 3,
      hasMore: true,
    });
  });

  it("copes with a server that sends no pagination", async () => {
    vi.stubGlobal(
      "fetch",
      async () =>
        new Response(JSON.stringify({ code: 200, message: "", data: [] }), {
          headers: { "content-type": "application/json" },
        }),
    );
    const page = await pastesApi.list({ page: 1, limit: 10 });
    expect(page.pagination).toMatchObject({ total: 0, page: 1, totalPages: 1, hasMore: false });
  });

  it("builds raw links with the access token", () => {
    expect(pastesApi.rawUrl("a b")).toBe("/api/raw/a%20b");
    expect(pastesApi.rawUrl("x", "123.abc")).toBe("/api/raw/x?token=123.abc");
  });
});
