/** Extracts a ZIP with Info-ZIP's unzip (an independent reader) and returns every file by its archive path. */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

export function unzipTo(zip: Buffer): Map<string, Buffer> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "clipshare-unzip-"));
  try {
    const file = path.join(dir, "archive.zip");
    writeFileSync(file, zip);
    const test = execFileSync("unzip", ["-t", file]).toString();
    if (!test.includes("No errors detected")) throw new Error(`unzip -t failed:\n${test}`);
    execFileSync("unzip", ["-q", file, "-d", path.join(dir, "out")]);
    const files = new Map<string, Buffer>();
    const walk = (abs: string, rel: string) => {
      for (const entry of readdirSync(abs, { withFileTypes: true })) {
        const childRel = rel ? `${rel}/${entry.name}` : entry.name;
        if (entry.isDirectory()) walk(path.join(abs, entry.name), childRel);
        else files.set(childRel, readFileSync(path.join(abs, entry.name)));
      }
    };
    walk(path.join(dir, "out"), "");
    return files;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
