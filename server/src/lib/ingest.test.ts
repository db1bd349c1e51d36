import { PassThrough, Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { ingest } from "./ingest";

/** A write that reads everything it is given, honouring the abort signal like a storage driver. */
function collectingWrite(log: { aborted?: boolean; settledAt?: number }) {
  return async (input: Readable, signal: AbortSignal) => {
    const chunks: Buffer[] = [];
    try {
      for await (const chunk of input) {
        signal.throwIfAborted();
        chunks.push(chunk as Buffer);
      }
      return Buffer.concat(chunks);
    } catch (e) {
      log.aborted = signal.aborted;
      // Cleanup takes a moment: the caller must wait for it before answering.
      await new Promise((r) => setTimeout(r, 20));
      log.settledAt = Date.now();
      throw e;
    }
  };
}

const body = (...chunks: string[]) => Readable.from(chunks.map((c) => Buffer.from(c)));

describe("ingest", () => {
  it("feeds the body into the write, counting bytes and reporting running totals", async () => {
    const totals: number[] = [];
    const { result, bytes } = await ingest(body("abc", "defg"), collectingWrite({}), {
      maxBytes: 7,
      onBytes: (n) => totals.push(n),
    });
    expect(result.toString()).toBe("abcdefg");
    expect(bytes).toBe(7);
    expect(totals).toEqual([3, 7]);
  });

  it("refuses a declared size over the limit without starting the write", async () => {
    let started = false;
    await expect(
      ingest(
        body("x"),
        async () => {
          started = true;
        },
        { maxBytes: 10, declaredSize: 11 },
      ),
    ).rejects.toMatchObject({
      status: 413,
      message: expect.stringMatching(/File size exceeds system limit/),
    });
    expect(started).toBe(false);
  });

  it("fails with 413 once the body passes the limit, after the aborted write has cleaned up", async () => {
    const log: { aborted?: boolean; settledAt?: number } = {};
    const error = await ingest(body("12345", "67890", "more"), collectingWrite(log), { maxBytes: 8 }).catch(
      (e) => e,
    );
    expect(error).toMatchObject({ status: 413, error: "content_too_large" });
    expect(log.aborted).toBe(true);
    expect(log.settledAt).toBeLessThanOrEqual(Date.now());
  });

  it("a body that breaks off aborts the write instead of leaving it waiting", async () => {
    const source = new PassThrough();
    const log: { aborted?: boolean } = {};
    const done = ingest(source, collectingWrite(log), { maxBytes: 100 });
    source.write("partial");
    setTimeout(() => source.destroy(), 10);
    await expect(done).rejects.toThrow();
    expect(log.aborted).toBe(true);
  });

  it("a body that broke off before ingest started fails the write instead of hanging", async () => {
    const source = new PassThrough();
    source.on("error", () => undefined); // the owner of the stream saw the error (a pipeline callback)
    source.destroy(new Error("remote went away"));
    await new Promise((r) => setImmediate(r));
    const log: { aborted?: boolean } = {};
    await expect(ingest(source, collectingWrite(log), { maxBytes: 100 })).rejects.toThrow("remote went away");
    expect(log.aborted).toBe(true);
    const closed = new PassThrough();
    closed.destroy();
    await new Promise((r) => setImmediate(r));
    await expect(ingest(closed, collectingWrite({}), { maxBytes: 100 })).rejects.toThrow();
  });

  it("a write that fails early does not wait for a body that keeps coming", async () => {
    const endless = new Readable({
      read() {
        this.push(Buffer.alloc(64 * 1024));
      },
    });
    await expect(
      ingest(endless, async () => {
        throw new Error("storage refused");
      }),
    ).rejects.toThrow("storage refused");
    endless.destroy();
  });

  it("the custom 413 of a part URL names the part size", async () => {
    const { partTooLarge } = await import("./ingest");
    await expect(
      ingest(body("123456"), collectingWrite({}), { maxBytes: 4, tooLarge: () => partTooLarge(4) }),
    ).rejects.toMatchObject({ status: 413, message: "Part is larger than the upload's part size (4 B)" });
  });

  it("a large body's spent buffers are collected as it streams instead of piling up", async () => {
    const MiB = 1024 * 1024;
    // 256 MiB in socket-sized 64 KiB buffers, each dropped once written.
    let made = 0;
    const source = new Readable({
      read() {
        this.push(made++ < 4096 ? Buffer.allocUnsafeSlow(64 * 1024) : null);
      },
    });
    const base = process.memoryUsage().arrayBuffers;
    let peak = 0;
    let seen = 0;
    const { bytes } = await ingest(source, async (input) => {
      for await (const _chunk of input) {
        if (++seen % 16 === 0) peak = Math.max(peak, process.memoryUsage().arrayBuffers - base);
      }
    });
    expect(bytes).toBe(256 * MiB);
    expect(peak).toBeLessThan(32 * MiB);
  });
});
