/**
 * SftpWriter on a scripted SFTP session: WRITEs answered out of order, the budget of bytes in
 * flight, a WRITE or a close the server refuses. The driver contract suite writes through the
 * same code to rclone's SFTP server (server/src/storage/driver.contract.ts).
 */
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { SFTPWrapper } from "ssh2";
import { describe, expect, it } from "vitest";
import { SftpWriter, WRITE_BUDGET } from "./sftp-write";

const body = Buffer.from(Array.from({ length: 5_000_000 }, (_, i) => (i * 7) % 253));

/** A session writing into one file, whose WRITEs answer after `delay(i)` ms; `fail` refuses one. */
function session(options: { delay?: (i: number) => number; failWrite?: number; failClose?: boolean } = {}) {
  const file = Buffer.alloc(body.length);
  const stats = { writes: 0, mostInFlightBytes: 0, inFlightBytes: 0, closed: 0, largest: 0 };
  const sftp = {
    _maxWriteLen: 31_952,
    open: (_p: string, _m: string, cb: (e: Error | undefined, h: Buffer) => void) =>
      setImmediate(() => cb(undefined, Buffer.from("handle"))),
    close: (_h: Buffer, cb: (e?: Error) => void) => {
      stats.closed++;
      setImmediate(() => cb(options.failClose ? Object.assign(new Error("quota"), { code: 4 }) : undefined));
    },
    write(
      _h: Buffer,
      buf: Buffer,
      off: number,
      len: number,
      pos: number,
      cb: (e: unknown, n?: number) => void,
    ) {
      const i = stats.writes++;
      // ssh2 copies the bytes into its packet when the request is made.
      const data = Buffer.from(buf.subarray(off, off + len));
      stats.largest = Math.max(stats.largest, len);
      stats.inFlightBytes += len;
      stats.mostInFlightBytes = Math.max(stats.mostInFlightBytes, stats.inFlightBytes);
      setTimeout(() => {
        stats.inFlightBytes -= len;
        if (i === options.failWrite) return cb(Object.assign(new Error("denied"), { code: 3 }));
        data.copy(file, pos);
        cb(undefined, len);
      }, options.delay?.(i) ?? 0);
    },
  };
  return { sftp: sftp as unknown as SFTPWrapper, stats, file };
}

/** `body` in 64 KiB chunks, as an HTTP request brings it. */
const chunks = () =>
  Readable.from(
    Array.from({ length: Math.ceil(body.length / 65_536) }, (_, i) =>
      body.subarray(i * 65_536, (i + 1) * 65_536),
    ),
  );

describe("SftpWriter", () => {
  it("writes every byte at its place when answers come back out of order, many at once", async () => {
    const { sftp, stats, file } = session({ delay: (i) => (i * 7) % 5 });
    await pipeline(chunks(), new SftpWriter(sftp, "/f"));
    expect(file.equals(body)).toBe(true);
    expect(stats.largest).toBeLessThanOrEqual(31_952);
    expect(stats.mostInFlightBytes).toBeGreaterThan(10 * 31_952);
    expect(stats.closed).toBe(1);
  });

  it("keeps about its budget in flight against a slow server", async () => {
    const { sftp, stats, file } = session({ delay: () => 3 });
    await pipeline(chunks(), new SftpWriter(sftp, "/f"));
    expect(file.equals(body)).toBe(true);
    // The chunk that reaches the budget is sent whole before the writer waits.
    expect(stats.mostInFlightBytes).toBeLessThan(WRITE_BUDGET + 65_536);
  });

  it("fails, and closes the file, when the server refuses a WRITE", async () => {
    const { sftp, stats } = session({ failWrite: 40 });
    const writer = new SftpWriter(sftp, "/f", (e) => Object.assign(new Error("mapped"), { cause: e }));
    await expect(pipeline(chunks(), writer)).rejects.toThrow("mapped");
    expect(stats.closed).toBe(1);
    expect(writer.closed).toBe(true);
  });

  it("fails when the server refuses to close the file (where a full disk may show)", async () => {
    const { sftp } = session({ failClose: true });
    await expect(pipeline(chunks(), new SftpWriter(sftp, "/f"))).rejects.toThrow("quota");
  });
});
