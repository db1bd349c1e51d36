import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { open } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import { afterAll, describe, expect, it } from "vitest";
import { FileBody } from "./file-body";
import { READ_CHUNK_BYTES } from "./streams";

const dir = mkdtempSync(path.join(os.tmpdir(), "clipshare-file-body-"));
const bytes = randomBytes(5 * READ_CHUNK_BYTES + 321);
const file = path.join(dir, "data.bin");
writeFileSync(file, bytes);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const closed = (body: FileBody) => new Promise<void>((resolve) => body.once("close", () => resolve()));

/** A client that takes its time with every chunk, noting how many were handed over and not yet done. */
function slowClient() {
  const received: Buffer[] = [];
  let outstanding = 0;
  let most = 0;
  const out = new Writable({
    highWaterMark: 0,
    write(chunk: Buffer, _encoding, done) {
      outstanding++;
      most = Math.max(most, outstanding);
      // A copy: the sender reuses its buffer once this write is done.
      received.push(Buffer.from(chunk));
      setTimeout(() => {
        outstanding--;
        done();
      }, 5);
    },
  });
  return { out, received, most: () => most };
}

describe("FileBody", () => {
  it("writes a range exactly through its two buffers, never more than two chunks ahead of the client", async () => {
    const body = new FileBody(await open(file), 1000, bytes.length - 7);
    const client = slowClient();
    const counted: number[] = [];
    const done = closed(body);
    body.writeTo(client.out, (n) => counted.push(n));
    await done;
    const got = Buffer.concat(client.received);
    expect(got.equals(bytes.subarray(1000, bytes.length - 6))).toBe(true);
    expect(counted.reduce((a, b) => a + b, 0)).toBe(got.length);
    expect(client.most()).toBeLessThanOrEqual(2);
  });

  it("read as a stream hands out chunks the reader may keep", async () => {
    const body = new FileBody(await open(file), 0, bytes.length - 1);
    const kept: Buffer[] = [];
    for await (const chunk of body) kept.push(chunk as Buffer);
    expect(kept.length).toBeGreaterThan(1);
    expect(Buffer.concat(kept).equals(bytes)).toBe(true);
  });

  it("closes the file when the client was gone before the first byte", async () => {
    const handle = await open(file);
    const body = new FileBody(handle, 0, bytes.length - 1);
    const gone = new Writable({ write: (_c, _e, done) => done() });
    gone.destroy();
    await new Promise((resolve) => gone.once("close", resolve));
    const done = closed(body);
    body.writeTo(gone, () => {});
    await done;
    await expect(handle.stat()).rejects.toThrow();
  });

  it("stops reading and closes the file when the client goes away midway", async () => {
    const handle = await open(file);
    const body = new FileBody(handle, 0, bytes.length - 1);
    let written = 0;
    const out = new Writable({
      write(chunk: Buffer, _encoding, done) {
        written += chunk.length;
        done();
        if (written >= READ_CHUNK_BYTES) out.destroy();
      },
    });
    const done = closed(body);
    body.writeTo(out, () => {});
    await done;
    expect(written).toBeLessThan(bytes.length);
    await expect(handle.stat()).rejects.toThrow();
  });
});
