import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import nodePath from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { bufferStream } from "../contract-helpers";
import { LocalDriver } from "./local";

// A directory named "appears-late" is created by "someone else" right after realpath reported it missing:
// the window between the driver's realpath and lstat in which concurrent uploads create a shared parent.
vi.mock("node:fs/promises", async (importOriginal) => {
  const real = await importOriginal<typeof import("node:fs/promises")>();
  const realpath = (async (path: string, ...rest: unknown[]) => {
    try {
      return await (real.realpath as (...a: unknown[]) => Promise<string>)(path, ...rest);
    } catch (e) {
      if (String(path).endsWith("appears-late")) await real.mkdir(String(path), { recursive: true });
      throw e;
    }
  }) as typeof real.realpath;
  return { ...real, default: { ...real, realpath }, realpath };
});

describe("LOCAL driver under concurrent directory creation", () => {
  let base: string;
  let driver: LocalDriver;
  beforeAll(async () => {
    base = await mkdtemp(nodePath.join(tmpdir(), "clipshare-race-"));
    driver = new LocalDriver({ root: nodePath.join(base, "root") });
  });
  afterAll(() => rm(base, { recursive: true, force: true }));

  it("a parent created by a concurrent write is not taken for a dangling symlink", async () => {
    expect(await driver.stat("appears-late/file.txt")).toBeNull();
    await driver.write("appears-late/other.txt", bufferStream("x"));
    expect(await driver.stat("appears-late/other.txt")).toMatchObject({ size: 1 });
  });
});
