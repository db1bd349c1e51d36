/**
 * The order and the limits of SftpRangeReader, on a scripted SFTP session: answers that come back
 * out of order or shorter than asked, a reader slower than the server, a file that ended early.
 * A real server does not produce these on demand; the driver contract suite reads through the
 * same code from rclone's SFTP server (server/src/storage/driver.contract.ts).
 */
import type { SFTPWrapper } from "ssh2";
import { describe, expect, it } from "vitest";
import { READ_BUDGET, SftpRangeReader } from "./sftp-read";

const file = Buffer.from(Array.from({ length: 3_000_000 }, (_, i) => i % 251));

/** A session over `file` whose READs answer after `delay(i)` ms and with at most `cap` bytes. */
function session(options: { delay?: (i: number) => number; cap?: number; maxRead?: number } = {}) {
  const stats = { reads: 0, inFlight: 0, mostInFlight: 0, closed: 0 };
  const sftp = {
    _maxReadLen: options.maxRead ?? 31_952,
    open: (_p: string, _m: string, cb: (e: Error | undefined, h: Buffer) => void) =>
      setImmediate(() => cb(undefined, Buffer.from("handle"))),
    close: (_h: Buffer, cb: () => void) => {
      stats.closed++;
      setImmediate(cb);
    },
    read(
      _h: Buffer,
      buf: Buffer,
      off: number,
      len: number,
      pos: number,
      cb: (e: unknown, n: number) => void,
    ) {
      const i = stats.reads++;
      stats.inFlight++;
      stats.mostInFlight = Math.max(stats.mostInFlight, stats.inFlight);
      setTimeout(() => {
        stats.inFlight--;
        const n = file.copy(buf, off, pos, Math.min(pos + Math.min(len, options.cap ?? len), file.length));
        cb(undefined, n);
      }, options.delay?.(i) ?? 0);
    },
  };
  return { sftp: sftp as unknown as SFTPWrapper, stats };
}

async function readAll(reader: SftpRangeReader, pause = 0): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of reader) {
    chunks.push(chunk as Buffer);
    if (pause) await new Promise((r) => setTimeout(r, pause));
  }
  return Buffer.concat(chunks);
}

const failure = (e: unknown) => e as Error;

describe("SftpRangeReader", () => {
  it("passes the bytes on in file order when answers come back out of order", async () => {
    const { sftp, stats } = session({ delay: (i) => (i * 7) % 5 });
    const got = await readAll(new SftpRangeReader(sftp, "/f", 100, 2_000_099, failure));
    expect(got.equals(file.subarray(100, 2_000_100))).toBe(true);
    expect(stats.mostInFlight).toBeGreaterThan(8);
    expect(stats.closed).toBe(1);
  });

  it("asks again for what a short answer left out", async () => {
    const { sftp } = session({ cap: 10_000 });
    const got = await readAll(new SftpRangeReader(sftp, "/f", 0, 999_999, failure));
    expect(got.equals(file.subarray(0, 1_000_000))).toBe(true);
  });

  it("keeps no more than its budget in flight for a slow reader, and does not stall", async () => {
    const { sftp, stats } = session({ maxRead: 300_000 });
    const got = await readAll(new SftpRangeReader(sftp, "/f", 0, file.length - 1, failure), 5);
    expect(got.equals(file)).toBe(true);
    // 300,000-byte READs: three fit in the budget.
    expect(stats.mostInFlight * 300_000).toBeLessThanOrEqual(READ_BUDGET);
    expect(stats.mostInFlight).toBe(3);
  });

  it("fails, and closes the file, when the file ends before the range does", async () => {
    const { sftp, stats } = session();
    const reader = new SftpRangeReader(sftp, "/f", file.length - 10, file.length + 99, (e) =>
      Object.assign(new Error("mapped"), { cause: e }),
    );
    await expect(readAll(reader)).rejects.toThrow("mapped");
    expect(stats.closed).toBe(1);
  });
});
