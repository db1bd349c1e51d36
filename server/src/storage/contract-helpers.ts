import { createHash } from "node:crypto";
import { Readable } from "node:stream";
import type { StorageCapabilities, StorageDriver, StorageEntry } from "./types";

/** Test-only stream helpers shared by the driver contract suite. */

/** What LOCAL and each remote tree with a parts directory are expected to claim. */
export const streamedOnly: StorageCapabilities = {
  presignRead: false,
  presignWrite: false,
  multipart: true,
  serverSideCopy: false,
  publicUrl: false,
  rangeRead: true,
};

const CHUNK = 64 * 1024;

/** Deterministic pseudo-random bytes, generated chunk by chunk so even large sizes stay flat in memory. */
export function generatedStream(size: number, seed = 1): Readable {
  let produced = 0;
  let state = seed >>> 0 || 1;
  return new Readable({
    read() {
      if (produced >= size) {
        this.push(null);
        return;
      }
      const n = Math.min(CHUNK, size - produced);
      const buf = Buffer.allocUnsafe(n);
      for (let i = 0; i < n; i++) {
        // xorshift32: fast, reproducible, not compressible enough to hide bugs.
        state ^= state << 13;
        state ^= state >>> 17;
        state ^= state << 5;
        buf[i] = state & 0xff;
      }
      produced += n;
      this.push(buf);
    },
  });
}

export async function sha256Of(stream: Readable): Promise<{ hash: string; bytes: number }> {
  const hash = createHash("sha256");
  let bytes = 0;
  for await (const chunk of stream) {
    hash.update(chunk as Buffer);
    bytes += (chunk as Buffer).length;
  }
  return { hash: hash.digest("hex"), bytes };
}

export async function expectedSha256(size: number, seed = 1): Promise<string> {
  return (await sha256Of(generatedStream(size, seed))).hash;
}

export async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export function bufferStream(data: Buffer | string): Readable {
  return Readable.from([Buffer.from(data)]);
}

/** Sends `goodBytes` bytes, then fails, like a client that disconnects mid-upload. */
export function failingStream(goodBytes: number): Readable {
  let sent = 0;
  return new Readable({
    read() {
      if (sent >= goodBytes) {
        setImmediate(() => this.destroy(new Error("client went away")));
        return;
      }
      const n = Math.min(CHUNK, goodBytes - sent);
      sent += n;
      this.push(Buffer.alloc(n, 0x61));
    },
  });
}

/** Sends `bytes` bytes and then never ends, like a stalled client; used with an abort signal. */
export function stallingStream(bytes: number): Readable {
  let sent = false;
  return new Readable({
    read() {
      if (!sent) {
        sent = true;
        this.push(Buffer.alloc(bytes, 0x62));
      }
    },
  });
}

/** Every entry of a directory, following cursors; fails on a page larger than `limit`. */
export async function listAll(driver: StorageDriver, dir: string, limit: number) {
  const entries: StorageEntry[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const page: Awaited<ReturnType<StorageDriver["list"]>> = await driver.list(dir, { limit, cursor });
    if (page.entries.length > limit) throw new Error(`page of ${page.entries.length} exceeds limit ${limit}`);
    entries.push(...page.entries);
    cursor = page.nextCursor;
    if (++pages > 10_000) throw new Error("listing never ends");
  } while (cursor);
  return { entries, pages };
}

export const byteOrder = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));
