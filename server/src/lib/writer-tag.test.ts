import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import os, { hostname } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SPOOL_PREFIX, sweepSpool } from "./spool";
import { taggedTempName, writerGone } from "./writer-tag";

/** The pid of a process that has just exited (so no process runs under it now). */
function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"]);
  return Number(child.stdout.toString());
}

const host = hostname().replace(/[^A-Za-z0-9-]/g, "_");

describe("writer tags of temporary files", () => {
  it("a file of this running process is not orphaned", () => {
    expect(writerGone(taggedTempName("w"), "w")).toBe(false);
  });

  it("a file of a process of this host that exited is orphaned", () => {
    expect(writerGone(`w-${host}.${deadPid()}.0badc0de-1234`, "w")).toBe(true);
  });

  it("a file with this process's pid but another nonce was left by an earlier process (a restarted container)", () => {
    expect(writerGone(`w-${host}.${process.pid}.00000000-1234`, "w")).toBe(true);
  });

  it("files of another host, untagged names and other prefixes keep the age rule", () => {
    expect(writerGone(`w-elsewhere.${deadPid()}.0badc0de-1234`, "w")).toBe(false);
    expect(writerGone("w-6f1c2e0a-uuid-only", "w")).toBe(false);
    expect(writerGone(`form-${host}.${deadPid()}.0badc0de-1234`, "w")).toBe(false);
  });

  it("the spool sweep removes a dead request's form file at once, whatever its age", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "clipshare-spool-tag-"));
    const orphan = `${SPOOL_PREFIX}-${host}.${deadPid()}.0badc0de-1234`;
    const live = taggedTempName(SPOOL_PREFIX);
    writeFileSync(path.join(dir, orphan), "x");
    writeFileSync(path.join(dir, live), "y");
    expect(await sweepSpool(dir, 3_600_000)).toBe(1);
    expect(readdirSync(dir)).toEqual([live]);
  });
});
