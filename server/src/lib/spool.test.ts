import { mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { sweepSpool } from "./spool";

describe("sweepSpool", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "clipshare-spool-"));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("removes spooled form files older than the limit and keeps those of running requests", async () => {
    const hourAgo = (Date.now() - 3600_000) / 1000;
    writeFileSync(path.join(dir, "form-left-by-a-crash"), "x");
    utimesSync(path.join(dir, "form-left-by-a-crash"), hourAgo, hourAgo);
    writeFileSync(path.join(dir, "form-in-flight"), "y");
    writeFileSync(path.join(dir, "not-ours"), "z");
    utimesSync(path.join(dir, "not-ours"), hourAgo, hourAgo);
    expect(await sweepSpool(dir, 60_000)).toBe(1);
    expect(readdirSync(dir).sort()).toEqual(["form-in-flight", "not-ours"]);
    expect(await sweepSpool(path.join(dir, "missing"), 60_000)).toBe(0);
  });
});
