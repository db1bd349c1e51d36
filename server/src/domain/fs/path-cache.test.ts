import { describe, expect, it } from "vitest";
import { PathCache } from "./path-cache";

describe("path cache", () => {
  const fill = () => {
    const cache = new PathCache<string>("Test", 1000);
    for (const dir of ["", "a", "a/b", "a/b/c", "ab", "x"]) cache.set("m", dir, "p1", dir, 60_000);
    cache.set("other", "a", "p1", "other", 60_000);
    return cache;
  };
  const present = (cache: PathCache<string>, mount: string, dir: string) =>
    cache.get(mount, dir, "p1") !== undefined;

  it("a file write drops its directory and every ancestor, nothing else", () => {
    const cache = fill();
    expect(cache.invalidate("m", "a/b/file.txt", false)).toBe(3);
    expect(["", "a", "a/b"].map((d) => present(cache, "m", d))).toEqual([false, false, false]);
    expect(["a/b/c", "ab", "x"].map((d) => present(cache, "m", d))).toEqual([true, true, true]);
    expect(present(cache, "other", "a")).toBe(true);
  });

  it("a directory change also drops the subtree, but not a sibling sharing the prefix", () => {
    const cache = fill();
    cache.invalidate("m", "a", true);
    expect(["", "a", "a/b", "a/b/c"].map((d) => present(cache, "m", d))).toEqual([
      false,
      false,
      false,
      false,
    ]);
    expect(present(cache, "m", "ab")).toBe(true);
  });

  it("expires entries, counts hits and misses, and stays under its weight limit", () => {
    let now = 0;
    const cache = new PathCache<string>("Test", 100, () => now);
    cache.set("m", "d", "k", "v", 1000);
    expect(cache.get("m", "d", "k")).toBe("v");
    now = 1000;
    expect(cache.get("m", "d", "k")).toBeUndefined();
    expect(cache.stats()).toMatchObject({ hits: 1, misses: 1, expired: 1, cacheSize: 0 });
    for (let i = 0; i < 50; i++) cache.set("m", `dir${i}`, "k", "v", 60_000, 10);
    expect(cache.stats().cacheSize).toBeLessThanOrEqual(10);
    expect(cache.stats().pruned).toBeGreaterThan(0);
    const size = cache.stats().cacheSize;
    expect(cache.clear()).toBe(size);
    expect(cache.stats().cacheSize).toBe(0);
  });
});
