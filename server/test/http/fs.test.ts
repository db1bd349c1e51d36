import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Auth, createLocalStorage, createMount, list } from "../support/fs-helpers";
import { createTestApp, type TestApp } from "../support/test-app";
import { describeFsSuite } from "./fs-suite";

describeFsSuite("LOCAL", (t) => createLocalStorage(t, "suite-disk"));

describe("a 10,000-entry directory on LOCAL", () => {
  let t: TestApp;
  let admin: Auth;
  const count = 10_000;
  beforeAll(async () => {
    t = await createTestApp();
    admin = { token: await t.adminToken() };
    const storage = await createLocalStorage(t, "big-disk");
    await createMount(t, storage, "/big");
    const dir = path.join(t.dataDir, "big-disk", "many");
    mkdirSync(dir, { recursive: true });
    for (let i = 0; i < count; i++)
      writeFileSync(path.join(dir, `file-${String(i).padStart(5, "0")}.txt`), "");
  });
  afterAll(async () => t.close());

  it("lists page by page: every entry exactly once, in name order", async () => {
    const first = await list(t, "/big/many", admin, "&limit=1000");
    expect(first.status).toBe(200);
    expect(first.body.data.items).toHaveLength(1000);
    expect(first.body.data.hasMore).toBe(true);
    const seen = new Set<string>(first.body.data.items.map((i: { name: string }) => i.name));
    let cursor: string | null = first.body.data.nextCursor;
    let pages = 1;
    while (cursor) {
      const res = await list(t, "/big/many", admin, `&limit=1000&cursor=${encodeURIComponent(cursor)}`);
      for (const item of res.body.data.items) {
        expect(seen.has(item.name)).toBe(false);
        seen.add(item.name);
      }
      cursor = res.body.data.nextCursor;
      pages++;
    }
    expect(pages).toBe(10);
    expect(seen.size).toBe(count);
    const again = await list(t, "/big/many", admin, "&limit=1000");
    expect(again.body.data.cached).toBe(true);
    expect(again.body.data.items[0].name).toBe("file-00000.txt");
  });
});
