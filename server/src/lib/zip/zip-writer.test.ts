import { execFileSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { crc32 } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { OPEN_AHEAD, type ZipEntry, zipEntryName, zipStream } from "./zip-writer";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function build(entries: ZipEntry[], forceZip64 = false): Promise<Buffer> {
  async function* source() {
    yield* entries;
  }
  const chunks: Buffer[] = [];
  for await (const chunk of zipStream(source(), { forceZip64 })) chunks.push(chunk);
  return Buffer.concat(chunks);
}

function extract(zip: Buffer): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "clipshare-zip-"));
  dirs.push(dir);
  writeFileSync(path.join(dir, "a.zip"), zip);
  execFileSync("unzip", ["-q", "a.zip", "-d", "out"], { cwd: dir });
  return path.join(dir, "out");
}

const file = (name: string, data: Buffer, chunkSize = 1000): ZipEntry => ({
  name,
  isDirectory: false,
  size: data.length,
  modified: new Date("2024-05-06T07:08:10Z"),
  open: async () =>
    Readable.from(
      Array.from({ length: Math.ceil(data.length / chunkSize) }, (_, i) =>
        data.subarray(i * chunkSize, (i + 1) * chunkSize),
      ),
    ),
});

describe("crc32 (node:zlib)", () => {
  it("gives the standard check value and continues across chunks, as the writer uses it", () => {
    expect(crc32(Buffer.from("123456789"))).toBe(0xcbf43926);
    expect(crc32(Buffer.alloc(0))).toBe(0);
    for (const n of [1, 7, 8, 9, 63, 64, 1000, 65_537]) {
      const data = randomBytes(n);
      expect(crc32(data.subarray(3), crc32(data.subarray(0, 3)))).toBe(crc32(data));
    }
  });
});

describe("zip writer", () => {
  const a = randomBytes(70_000);
  const b = Buffer.from("hello world\n");
  const empty = Buffer.alloc(0);

  for (const forceZip64 of [false, true]) {
    it(`writes an archive unzip extracts byte-identical${forceZip64 ? " (forced zip64)" : ""}`, async () => {
      const zip = await build(
        [
          { name: "docs", isDirectory: true, modified: new Date() },
          file("docs/a.bin", a),
          file("docs/中文 名字.txt", b),
          file("empty.txt", empty),
          { name: "docs/sub/", isDirectory: true },
        ],
        forceZip64,
      );
      const out = extract(zip);
      expect(execFileSync("unzip", ["-t", path.join(out, "..", "a.zip")]).toString()).toContain(
        "No errors detected",
      );
      expect(readFileSync(path.join(out, "docs/a.bin")).equals(a)).toBe(true);
      expect(readFileSync(path.join(out, "docs/中文 名字.txt")).equals(b)).toBe(true);
      expect(readFileSync(path.join(out, "empty.txt")).length).toBe(0);
      const listing = execFileSync("unzip", ["-Z1", path.join(out, "..", "a.zip")]).toString();
      expect(listing.split("\n").filter(Boolean).sort()).toEqual(
        ["docs/", "docs/a.bin", "docs/sub/", "docs/中文 名字.txt", "empty.txt"].sort(),
      );
    });
  }

  it("leaves out entries whose file vanished and never loses the rest", async () => {
    const zip = await build([
      { name: "gone.txt", isDirectory: false, size: 3, open: async () => null },
      file("kept.txt", b),
    ]);
    const out = extract(zip);
    expect(readFileSync(path.join(out, "kept.txt")).equals(b)).toBe(true);
    expect(
      execFileSync("unzip", ["-Z1", path.join(out, "..", "a.zip")])
        .toString()
        .trim(),
    ).toBe("kept.txt");
  });

  it("keeps names inside the archive", () => {
    expect(zipEntryName("/a/../b\\c/./d", false)).toBe("a/b_c/d");
    expect(zipEntryName("dir", true)).toBe("dir/");
  });

  it("streams: opens at most OPEN_AHEAD files ahead of the one the consumer reads", async () => {
    let opened = 0;
    const big = (name: string): ZipEntry => ({
      name,
      isDirectory: false,
      size: 1024,
      open: async () => {
        opened++;
        return Readable.from([Buffer.alloc(1024, 1)]);
      },
    });
    async function* source() {
      for (let i = 0; i < 10; i++) yield big(String(i));
    }
    const it = zipStream(source());
    await it.next(); // local header of the first entry
    expect(opened).toBe(OPEN_AHEAD);
    const rest: Buffer[] = [];
    for await (const c of it) rest.push(c);
    expect(opened).toBe(10);
    expect(createHash("sha1").update(Buffer.concat(rest)).digest("hex")).toHaveLength(40);
  });

  it("with openAhead 1 each file is opened only when its turn comes", async () => {
    let opened = 0;
    const entry = (name: string): ZipEntry => ({
      name,
      isDirectory: false,
      size: 1,
      open: async () => {
        opened++;
        return Readable.from([Buffer.from("x")]);
      },
    });
    const it = zipStream(
      (async function* () {
        yield entry("a");
        yield entry("b");
      })(),
      { openAhead: 1 },
    );
    await it.next();
    expect(opened).toBe(1);
    for await (const _ of it);
    expect(opened).toBe(2);
  });

  it("bodies opened ahead are destroyed when the consumer stops early", async () => {
    const bodies: Readable[] = [];
    async function* source(): AsyncGenerator<ZipEntry> {
      for (let i = 0; i < 6; i++)
        yield {
          name: String(i),
          isDirectory: false,
          size: 4,
          open: async () => {
            const body = Readable.from([Buffer.from("data")]);
            bodies.push(body);
            return body;
          },
        };
    }
    const it = zipStream(source());
    await it.next();
    await it.return(undefined);
    await new Promise((r) => setImmediate(r));
    expect(bodies.length).toBe(OPEN_AHEAD);
    expect(bodies.every((b) => b.destroyed)).toBe(true);
  });
});
