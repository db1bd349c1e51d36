import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  bufferStream,
  byteOrder,
  expectedSha256,
  failingStream,
  generatedStream,
  listAll,
  readAll,
  sha256Of,
  stallingStream,
} from "./contract-helpers";
import type { StorageCapabilities, StorageDriver } from "./types";

export interface ContractHarness {
  driver: StorageDriver;
  /** Leftovers only an operator would see: temp files, unfinished multipart uploads. Must be empty after failures. */
  litter(): Promise<string[]>;
  cleanup(): Promise<void>;
}

const MiB = 1024 * 1024;

/**
 * What every caller may rely on, whatever the backend. Each test works in its
 * own directory so the suite can share one harness (one S3 prefix).
 * `capabilities` is what the driver is expected to claim; tests for optional
 * features are registered only when claimed, so nothing shows up as skipped.
 */
export function describeStorageDriver(
  name: string,
  makeHarness: () => Promise<ContractHarness>,
  capabilities: StorageCapabilities,
) {
  describe(`storage driver contract: ${name}`, () => {
    let h: ContractHarness;
    let d: StorageDriver;
    let n = 0;
    const dir = () => `case-${++n}`;

    beforeAll(async () => {
      h = await makeHarness();
      d = h.driver;
    });
    afterAll(async () => {
      await h?.cleanup();
    });

    it("claims the expected capabilities and has a method for each", () => {
      const caps = d.capabilities;
      expect(caps).toEqual(capabilities);
      expect(typeof d.presignRead === "function").toBe(caps.presignRead);
      expect(typeof d.presignWrite === "function").toBe(caps.presignWrite);
      for (const m of [
        "initMultipart",
        "uploadPart",
        "completeMultipart",
        "abortMultipart",
        "listParts",
      ] as const) {
        expect(typeof d[m] === "function").toBe(caps.multipart);
      }
      expect(typeof d.presignPart === "function").toBe(caps.multipart && caps.presignWrite);
      expect(typeof d.publicUrl === "function").toBe(caps.publicUrl);
    });

    it("writes and reads back text, reporting size, etag and type consistently", async () => {
      const p = `${dir()}/hello.txt`;
      const written = await d.write(p, bufferStream("hello world"));
      expect(written.size).toBe(11);
      const st = await d.stat(p);
      expect(st).toMatchObject({ path: p, name: "hello.txt", isDirectory: false, size: 11 });
      expect(st?.contentType).toMatch(/^text\/plain/);
      expect(st?.modified).toBeInstanceOf(Date);
      expect(st?.etag).toBe(written.etag);
      const r = await d.read(p);
      expect(r).toMatchObject({ size: 11, contentLength: 11, range: null, etag: written.etag });
      expect((await readAll(r.body)).toString()).toBe("hello world");
      expect(await d.exists(p)).toBe(true);
      expect(await d.exists(`${p}.nope`)).toBe(false);
    });

    it("round-trips binary data and empty files", async () => {
      const base = dir();
      const all = Buffer.from(Array.from({ length: 512 }, (_, i) => i % 256));
      await d.write(`${base}/bytes.bin`, bufferStream(all), { size: all.length });
      expect(Buffer.compare(await readAll((await d.read(`${base}/bytes.bin`)).body), all)).toBe(0);
      await d.write(`${base}/empty`, bufferStream(Buffer.alloc(0)), { size: 0 });
      const r = await d.read(`${base}/empty`);
      expect(r).toMatchObject({ size: 0, contentLength: 0 });
      expect((await readAll(r.body)).length).toBe(0);
    });

    it.each([
      ["known", true],
      ["unknown", false],
    ])("streams a several-MB body with %s length", async (_label, known) => {
      const size = 8 * MiB + 123;
      const p = `${dir()}/big.bin`;
      const w = await d.write(p, generatedStream(size, 7), known ? { size } : {});
      expect(w.size).toBe(size);
      const got = await sha256Of((await d.read(p)).body);
      expect(got.bytes).toBe(size);
      expect(got.hash).toBe(await expectedSha256(size, 7));
      expect((await d.stat(p))?.size).toBe(size);
    });

    it("serves byte ranges with an inclusive end", async () => {
      const p = `${dir()}/range.txt`;
      await d.write(p, bufferStream("0123456789"));
      const cases: [Parameters<StorageDriver["read"]>[1], string, { start: number; end: number }][] = [
        [{ start: 2, end: 5 }, "2345", { start: 2, end: 5 }],
        [{ start: 7 }, "789", { start: 7, end: 9 }],
        [{ end: 2 }, "012", { start: 0, end: 2 }],
        [{ suffix: 3 }, "789", { start: 7, end: 9 }],
        [{ start: 8, end: 100 }, "89", { start: 8, end: 9 }],
        [{ start: 0, end: 0 }, "0", { start: 0, end: 0 }],
      ];
      for (const [range, text, served] of cases) {
        const r = await d.read(p, range);
        expect((await readAll(r.body)).toString(), JSON.stringify(range)).toBe(text);
        expect(r).toMatchObject({ size: 10, contentLength: text.length, range: served });
      }
      await expect(d.read(p, { start: 10 })).rejects.toMatchObject({ status: 416 });
    });

    it("stats files, directories, the root and missing paths", async () => {
      const base = dir();
      await d.write(`${base}/sub/f.md`, bufferStream("# hi"));
      expect(await d.stat(`${base}/missing`)).toBeNull();
      expect(await d.stat(`${base}/sub/f.md/x`)).toBeNull();
      expect(await d.stat(`${base}/sub`)).toMatchObject({
        isDirectory: true,
        name: "sub",
        path: `${base}/sub`,
      });
      expect((await d.stat(`${base}/sub/f.md`))?.contentType).toBe("text/markdown");
      expect(await d.stat("")).toMatchObject({ isDirectory: true, path: "" });
      await expect(d.read(`${base}/missing`)).rejects.toMatchObject({ status: 404, error: "not_found" });
    });

    it("pages through a directory with a small limit, without duplicates, in byte order", async () => {
      const base = dir();
      const names: string[] = [];
      for (let i = 0; i < 25; i++) names.push(`file-${String(i).padStart(2, "0")}.txt`);
      await Promise.all(names.map((nm) => d.write(`${base}/${nm}`, bufferStream(nm))));
      for (const sub of ["dir-a", "dir-m", "zz-dir"]) await d.mkdir(`${base}/${sub}`);
      await d.write(`${base}/dir-m/inner.txt`, bufferStream("x"));
      const { entries, pages } = await listAll(d, base, 7);
      expect(pages).toBeGreaterThanOrEqual(4);
      const listed = entries.map((e) => e.name);
      expect(new Set(listed).size).toBe(listed.length);
      expect(listed).toEqual([...names, "dir-a", "dir-m", "zz-dir"].sort(byteOrder));
      const file = entries.find((e) => e.name === "file-03.txt");
      expect(file).toMatchObject({ isDirectory: false, size: 11, path: `${base}/file-03.txt` });
      expect(file?.etag).toBeTruthy();
      expect(entries.find((e) => e.name === "dir-m")).toMatchObject({
        isDirectory: true,
        path: `${base}/dir-m`,
      });
      const whole = await d.list(base);
      expect(whole.nextCursor).toBeNull();
      expect(whole.entries).toHaveLength(28);
    });

    it("creates nested directories implicitly on write and explicitly with mkdir", async () => {
      const base = dir();
      await d.write(`${base}/a/b/c/deep.txt`, bufferStream("deep"));
      expect((await d.list(`${base}/a`)).entries.map((e) => [e.name, e.isDirectory])).toEqual([["b", true]]);
      expect((await d.list(`${base}/a/b/c`)).entries.map((e) => e.name)).toEqual(["deep.txt"]);
      await d.mkdir(`${base}/x/y`);
      await d.mkdir(`${base}/x/y`);
      expect(await d.stat(`${base}/x/y`)).toMatchObject({ isDirectory: true });
      expect((await d.list(`${base}/x/y`)).entries).toEqual([]);
      expect((await d.list(base)).entries.map((e) => e.name)).toEqual(["a", "x"]);
      await expect(d.mkdir(`${base}/a/b/c/deep.txt`)).rejects.toMatchObject({ status: 409 });
      await expect(d.list(`${base}/nothing-here`)).rejects.toMatchObject({ status: 404 });
    });

    it("removes files, empty and non-empty directories", async () => {
      const base = dir();
      await d.write(`${base}/f.txt`, bufferStream("f"));
      await d.write(`${base}/tree/one/two.txt`, bufferStream("2"));
      await d.write(`${base}/tree/three.txt`, bufferStream("3"));
      await d.mkdir(`${base}/empty`);
      await d.remove(`${base}/f.txt`);
      expect(await d.stat(`${base}/f.txt`)).toBeNull();
      await expect(d.remove(`${base}/f.txt`)).rejects.toMatchObject({ status: 404 });
      await expect(d.remove(`${base}/tree`)).rejects.toMatchObject({
        status: 409,
        error: "directory_not_empty",
      });
      await d.remove(`${base}/empty`);
      await d.remove(`${base}/tree`, { recursive: true });
      expect(await d.stat(`${base}/tree`)).toBeNull();
      expect(await d.stat(`${base}/tree/one/two.txt`)).toBeNull();
      expect((await d.list(base)).entries).toEqual([]);
      await expect(d.remove("")).rejects.toMatchObject({ status: 400 });
    });

    it("renames files and directories", async () => {
      const base = dir();
      await d.write(`${base}/a.txt`, bufferStream("A"));
      await d.write(`${base}/b.txt`, bufferStream("B"));
      await d.rename(`${base}/a.txt`, `${base}/moved/a2.txt`);
      expect(await d.stat(`${base}/a.txt`)).toBeNull();
      expect((await readAll((await d.read(`${base}/moved/a2.txt`)).body)).toString()).toBe("A");
      await expect(d.rename(`${base}/b.txt`, `${base}/moved/a2.txt`)).rejects.toMatchObject({ status: 409 });
      await d.rename(`${base}/b.txt`, `${base}/moved/a2.txt`, { overwrite: true });
      expect((await readAll((await d.read(`${base}/moved/a2.txt`)).body)).toString()).toBe("B");
      await d.write(`${base}/moved/sub/c.txt`, bufferStream("C"));
      await d.rename(`${base}/moved`, `${base}/renamed`);
      expect(await d.stat(`${base}/moved`)).toBeNull();
      expect((await listAll(d, `${base}/renamed`, 10)).entries.map((e) => e.name)).toEqual(["a2.txt", "sub"]);
      expect((await readAll((await d.read(`${base}/renamed/sub/c.txt`)).body)).toString()).toBe("C");
      await expect(d.rename(`${base}/renamed`, `${base}/renamed/inside`)).rejects.toMatchObject({
        status: 400,
      });
      await expect(d.rename(`${base}/nope`, `${base}/x`)).rejects.toMatchObject({ status: 404 });
      await d.mkdir(`${base}/other`);
      await expect(d.rename(`${base}/renamed`, `${base}/other`)).rejects.toMatchObject({ status: 409 });
    });

    it("copies files and directories, leaving the source intact", async () => {
      const base = dir();
      await d.write(`${base}/src/one.txt`, bufferStream("one"));
      await d.write(`${base}/src/deeper/two.bin`, generatedStream(300_000, 3));
      await d.copy(`${base}/src/one.txt`, `${base}/copy.txt`);
      expect((await readAll((await d.read(`${base}/copy.txt`)).body)).toString()).toBe("one");
      expect(await d.stat(`${base}/src/one.txt`)).not.toBeNull();
      await expect(d.copy(`${base}/src/one.txt`, `${base}/copy.txt`)).rejects.toMatchObject({ status: 409 });
      await d.copy(`${base}/src`, `${base}/dst`);
      expect((await d.list(`${base}/dst`)).entries.map((e) => e.name)).toEqual(["deeper", "one.txt"]);
      const got = await sha256Of((await d.read(`${base}/dst/deeper/two.bin`)).body);
      expect(got.hash).toBe(await expectedSha256(300_000, 3));
      expect((await d.list(`${base}/src`)).entries).toHaveLength(2);
      await expect(d.copy(`${base}/src`, `${base}/src/again`)).rejects.toMatchObject({ status: 400 });
      await expect(d.copy(`${base}/missing`, `${base}/x`)).rejects.toMatchObject({ status: 404 });
    });

    it("overwrites a file with a new write", async () => {
      const p = `${dir()}/over.txt`;
      const first = await d.write(p, bufferStream("first version"));
      const second = await d.write(p, bufferStream("second"));
      expect(second.etag).not.toBe(first.etag);
      expect((await readAll((await d.read(p)).body)).toString()).toBe("second");
      expect((await d.stat(p))?.size).toBe(6);
    });

    it.each([
      ["known", true],
      ["unknown", false],
    ])("leaves nothing behind when the source errors halfway (%s length)", async (_label, known) => {
      const base = dir();
      const size = 6 * MiB;
      const attempt = d.write(`${base}/broken.bin`, failingStream(size / 2), known ? { size } : {});
      await expect(attempt).rejects.toThrow();
      expect(await d.stat(`${base}/broken.bin`)).toBeNull();
      expect(await d.stat(base)).toBeNull();
      expect(await h.litter()).toEqual([]);
    });

    it("leaves nothing behind when a write is aborted or its size is wrong", async () => {
      const base = dir();
      const ctrl = new AbortController();
      const attempt = d.write(`${base}/aborted.bin`, stallingStream(64 * 1024), {
        size: MiB,
        signal: ctrl.signal,
      });
      setTimeout(() => ctrl.abort(), 200);
      await expect(attempt).rejects.toThrow();
      await expect(d.write(`${base}/short.bin`, bufferStream("abc"), { size: 10 })).rejects.toMatchObject({
        status: 400,
        error: "size_mismatch",
      });
      await expect(d.write(`${base}/long.bin`, bufferStream("abcdef"), { size: 2 })).rejects.toMatchObject({
        status: 400,
      });
      expect(await d.stat(`${base}/aborted.bin`)).toBeNull();
      expect(await d.stat(`${base}/short.bin`)).toBeNull();
      expect(await d.stat(`${base}/long.bin`)).toBeNull();
      expect(await h.litter()).toEqual([]);
    });

    it("handles names with spaces, non-ASCII and URL-special characters", async () => {
      const base = `${dir()}/dir with space/目录 ü`;
      const names = ["文件 名 é.txt", "a+b %20c#?&=;.md", "emoji 😀.bin"];
      for (const nm of names) await d.write(`${base}/${nm}`, bufferStream(nm));
      const listed = (await d.list(base)).entries.map((e) => e.name);
      expect(listed).toEqual([...names].sort(byteOrder));
      for (const nm of names) {
        expect((await readAll((await d.read(`${base}/${nm}`)).body)).toString()).toBe(nm);
        expect((await d.stat(`${base}/${nm}`))?.name).toBe(nm);
      }
      await d.rename(`${base}/${names[0]}`, `${base}/改名 后.txt`);
      await d.copy(`${base}/改名 后.txt`, `${base}/副本 1.txt`);
      expect((await readAll((await d.read(`${base}/副本 1.txt`)).body)).toString()).toBe(names[0]);
      const parentListing = await d.list(base.slice(0, base.lastIndexOf("/")));
      expect(parentListing.entries.map((e) => e.name)).toEqual(["目录 ü"]);
    });

    it("refuses unsafe paths everywhere", async () => {
      for (const bad of ["../escape.txt", "a/../../b", "/etc/passwd", "a\\b", "nul\0byte", "ctl\x01"]) {
        await expect(d.write(bad, bufferStream("x")), bad).rejects.toMatchObject({
          status: 400,
          error: "invalid_path",
        });
        await expect(d.stat(bad), bad).rejects.toMatchObject({ status: 400 });
        await expect(d.list(bad), bad).rejects.toMatchObject({ status: 400 });
      }
    });

    if (capabilities.multipart)
      describe("multipart", () => {
        it("assembles parts given out of order", async () => {
          const p = `${dir()}/multi.bin`;
          const id = await d.initMultipart!(p, { contentType: "application/x-test" });
          const part2 = await d.uploadPart!(p, id, 2, generatedStream(1000, 22), 1000);
          const part1 = await d.uploadPart!(p, id, 1, generatedStream(5 * MiB, 11), 5 * MiB);
          expect(await d.stat(p)).toBeNull();
          await expect(
            d.completeMultipart!(p, id, [
              { partNumber: 1, etag: part2.etag },
              { partNumber: 2, etag: part2.etag },
            ]),
          ).rejects.toMatchObject({ status: 400, error: "invalid_part" });
          const done = await d.completeMultipart!(p, id, [
            { partNumber: 2, etag: `"${part2.etag}"` },
            { partNumber: 1, etag: part1.etag },
          ]);
          expect(done.size).toBe(5 * MiB + 1000);
          const got = await readAll((await d.read(p)).body);
          const expected = Buffer.concat([
            await readAll(generatedStream(5 * MiB, 11)),
            await readAll(generatedStream(1000, 22)),
          ]);
          expect(Buffer.compare(got, expected)).toBe(0);
          expect(await h.litter()).toEqual([]);
        });

        it("lists the parts stored so far", async () => {
          const p = `${dir()}/listed-multi.bin`;
          const id = await d.initMultipart!(p);
          expect(await d.listParts!(p, id)).toEqual([]);
          const part3 = await d.uploadPart!(p, id, 3, bufferStream("third"), 5);
          const part1 = await d.uploadPart!(p, id, 1, generatedStream(5 * MiB, 1), 5 * MiB);
          // A failed attempt at a part leaves the parts already stored as they were.
          await expect(d.uploadPart!(p, id, 2, failingStream(100_000), 200_000)).rejects.toThrow();
          expect(await d.listParts!(p, id)).toEqual([
            { partNumber: 1, etag: part1.etag, size: 5 * MiB },
            { partNumber: 3, etag: part3.etag, size: 5 },
          ]);
          await d.completeMultipart!(p, id, [
            { partNumber: 1, etag: part1.etag },
            { partNumber: 3, etag: part3.etag },
          ]);
          expect(await h.litter()).toEqual([]);
        });

        it("aborts an upload without leaving anything", async () => {
          const p = `${dir()}/aborted-multi.bin`;
          const id = await d.initMultipart!(p);
          const part = await d.uploadPart!(p, id, 1, bufferStream("part one"), 8);
          await expect(d.uploadPart!(p, id, 2, failingStream(100_000), 200_000)).rejects.toThrow();
          await expect(d.uploadPart!(p, id, 3, bufferStream("short"), 10)).rejects.toMatchObject({
            status: 400,
          });
          await d.abortMultipart!(p, id);
          expect(await d.stat(p)).toBeNull();
          await expect(d.listParts!(p, id)).rejects.toMatchObject({ status: 404, error: "upload_not_found" });
          expect(await h.litter()).toEqual([]);
          await expect(
            d.completeMultipart!(p, id, [{ partNumber: 1, etag: part.etag }]),
          ).rejects.toMatchObject({
            status: 404,
          });
        });
      });

    if (capabilities.presignRead || capabilities.presignWrite)
      describe("presigned URLs", () => {
        if (capabilities.presignRead)
          it("serves reads with the requested disposition and type", async () => {
            const p = `${dir()}/signed read ü.bin`;
            await d.write(p, generatedStream(100_000, 5));
            const signed = await d.presignRead!(p, {
              expiresIn: 300,
              disposition: "attachment",
              filename: "报告 final.pdf",
              contentType: "application/pdf",
            });
            expect(signed.method).toBe("GET");
            expect(signed.expiresAt.getTime()).toBeGreaterThan(Date.now());
            const res = await fetch(signed.url, { headers: signed.headers });
            expect(res.status).toBe(200);
            expect(res.headers.get("content-type")).toBe("application/pdf");
            const cd = res.headers.get("content-disposition") ?? "";
            expect(cd).toMatch(/^attachment;/);
            expect(cd).toContain("filename*=UTF-8''%E6%8A%A5%E5%91%8A%20final.pdf");
            const body = Buffer.from(await res.arrayBuffer());
            expect(Buffer.compare(body, await readAll(generatedStream(100_000, 5)))).toBe(0);
          });

        if (capabilities.presignWrite)
          it("accepts a direct PUT and presigned multipart parts", async () => {
            const base = dir();
            const data = await readAll(generatedStream(200_000, 9));
            const put = await d.presignWrite!(`${base}/direct upload é.bin`, {
              contentType: "application/octet-stream",
            });
            expect(put.method).toBe("PUT");
            const res = await fetch(put.url, { method: "PUT", headers: put.headers, body: data });
            expect(res.status).toBe(200);
            expect(
              Buffer.compare(await readAll((await d.read(`${base}/direct upload é.bin`)).body), data),
            ).toBe(0);
            if (!d.capabilities.multipart) return;
            const p = `${base}/parts.bin`;
            const id = await d.initMultipart!(p);
            const chunks = [await readAll(generatedStream(5 * MiB, 1)), data];
            const parts = [];
            for (const [i, chunk] of chunks.entries()) {
              const signed = await d.presignPart!(p, id, i + 1, 300);
              const r = await fetch(signed.url, { method: "PUT", headers: signed.headers, body: chunk });
              expect(r.status).toBe(200);
              parts.push({ partNumber: i + 1, etag: r.headers.get("etag") ?? "" });
            }
            const done = await d.completeMultipart!(p, id, parts);
            expect(done.size).toBe(5 * MiB + data.length);
            expect((await d.stat(p))?.size).toBe(5 * MiB + data.length);
          });
      });
  });
}
