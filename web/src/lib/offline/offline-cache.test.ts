import { OFFLINE_CACHE_EXPIRY_MS } from "@clipshare/shared";
import { afterEach, describe, expect, it } from "vitest";
import {
  clearSearchHistory,
  clearSignedInData,
  readDirectory,
  readShare,
  rememberSearch,
  SEARCH_HISTORY_LIMIT,
  saveDirectory,
  saveShare,
  searchHistory,
  sweepExpired,
} from "./offline-cache";
import type { OfflineDb } from "./offline-db";
import { testDb } from "./test-db";

const DAY = 24 * 60 * 60 * 1000;
const T0 = Date.parse("2026-05-01T10:00:00Z");

const paste = (slug: string, extra: Record<string, unknown> = {}) => ({
  slug,
  content: `text of ${slug}`,
  createdAt: "2026-04-30T00:00:00.000Z",
  expiresAt: null,
  requiresPassword: false,
  ...extra,
});

let db: OfflineDb;
afterEach(async () => {
  await db?.delete();
});

describe("offline copies", () => {
  it("a copy saved by the release that kept camelCase answers is read in snake_case", async () => {
    db = testDb();
    await saveShare(db, "pastes", paste("old", { hasPassword: true, maxViews: 3 }), T0);
    expect(await readShare(db, "pastes", "old", T0)).toMatchObject({
      created_at: "2026-04-30T00:00:00.000Z",
      has_password: true,
      max_views: 3,
      requires_password: false,
    });
  });

  it("answers with a copy and its time until seven days have passed, then sweeps it", async () => {
    db = testDb();
    await saveShare(db, "pastes", paste("p1"), T0);
    await saveShare(
      db,
      "files",
      { slug: "f1", created_at: "2026-04-30T00:00:00.000Z", filename: "a.txt" },
      T0,
    );
    await saveDirectory(db, "admin", "/docs/", { path: "/docs/", items: [{ name: "a" }] }, T0);

    const later = T0 + OFFLINE_CACHE_EXPIRY_MS - 1;
    expect(await readShare(db, "pastes", "p1", later)).toMatchObject({
      content: "text of p1",
      offlineCopyAt: T0,
    });
    expect(await readShare(db, "files", "f1", later)).toMatchObject({ filename: "a.txt", offlineCopyAt: T0 });
    expect(await readDirectory(db, "admin", "/docs/", later)).toMatchObject({ items: [{ name: "a" }] });
    expect(await sweepExpired(db, later)).toBe(0);

    const eightDays = T0 + 8 * DAY;
    // Not shown even before the sweep ran...
    expect(await readShare(db, "pastes", "p1", eightDays)).toBeNull();
    expect(await readDirectory(db, "admin", "/docs/", eightDays)).toBeNull();
    // ...and the sweep deletes them.
    expect(await sweepExpired(db, eightDays)).toBe(3);
    expect(await db.pastes.count()).toBe(0);
    expect(await db.files.count()).toBe(0);
    expect(await db.directories.count()).toBe(0);
  });

  it("sweeps only what is old", async () => {
    db = testDb();
    await saveShare(db, "pastes", paste("old"), T0);
    await saveShare(db, "pastes", paste("new"), T0 + 5 * DAY);
    expect(await sweepExpired(db, T0 + 8 * DAY)).toBe(1);
    expect(await db.pastes.keys()).toEqual(["new"]);
  });

  it("never writes tokens or share URLs, and keeps no locked share", async () => {
    db = testDb();
    await saveShare(db, "pastes", paste("locked", { content: undefined, requiresPassword: true }), T0);
    await saveShare(
      db,
      "pastes",
      paste("unlocked", { hasPassword: true, accessToken: "secret-token", password: "pw" }),
      T0,
    );
    await saveShare(
      db,
      "files",
      {
        slug: "f",
        filename: "x.pdf",
        previewUrl: "/api/file-view/f?token=secret",
        downloadUrl: "/api/file-download/f?token=secret",
      },
      T0,
    );

    expect(await db.pastes.get("locked")).toBeUndefined();
    const stored = JSON.stringify([await db.pastes.all(), await db.files.all()]);
    expect(stored).not.toContain("secret");
    expect(stored).not.toContain('"pw"');
    expect(await readShare(db, "pastes", "unlocked", T0)).toMatchObject({ content: "text of unlocked" });
  });

  it("does not show a copy of a share whose own expiry has passed", async () => {
    db = testDb();
    await saveShare(db, "pastes", paste("short", { expiresAt: new Date(T0 + DAY).toISOString() }), T0);
    expect(await readShare(db, "pastes", "short", T0 + DAY - 1)).not.toBeNull();
    expect(await readShare(db, "pastes", "short", T0 + DAY)).toBeNull();
  });

  it("shows a directory only to the principal that listed it; sign-out clears directories and search history", async () => {
    db = testDb();
    await saveDirectory(db, "apikey:k1", "/team/", { path: "/team/", items: [] }, T0);
    expect(await readDirectory(db, "apikey:k2", "/team/", T0)).toBeNull();
    expect(await readDirectory(db, "apikey:k1", "/team/", T0)).not.toBeNull();
    await saveShare(db, "pastes", paste("public"), T0);
    await rememberSearch(db, "report", T0);

    await clearSignedInData(db);

    expect(await db.directories.count()).toBe(0);
    expect(await searchHistory(db)).toEqual([]);
    // A visitor's copy of a share is not signed-in data.
    expect(await db.pastes.count()).toBe(1);
  });
});

describe("search history", () => {
  it("lists each query once, newest first, bounded; clear all empties it", async () => {
    db = testDb();
    await rememberSearch(db, "alpha", 1);
    await rememberSearch(db, "beta", 2);
    await rememberSearch(db, "alpha", 3);
    expect(await searchHistory(db)).toEqual(["alpha", "beta"]);

    for (let i = 0; i < SEARCH_HISTORY_LIMIT + 5; i += 1) await rememberSearch(db, `q${i}`, 10 + i);
    const all = await searchHistory(db);
    expect(all).toHaveLength(SEARCH_HISTORY_LIMIT);
    expect(all[0]).toBe(`q${SEARCH_HISTORY_LIMIT + 4}`);
    expect(await db.searchHistory.count()).toBe(SEARCH_HISTORY_LIMIT);

    await clearSearchHistory(db);
    expect(await searchHistory(db)).toEqual([]);
  });
});
