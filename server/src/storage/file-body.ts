import type { FileHandle } from "node:fs/promises";
import { Readable, type Writable } from "node:stream";
import { READ_CHUNK_BYTES } from "./streams";

const shrank = () => new Error("The file became shorter while it was being read");

/**
 * The bytes `start`..`end` (inclusive) of an open file. As a Readable it hands
 * out a fresh buffer per read, as fs.ReadStream does, since a consumer may keep
 * the chunks it got. `writeTo` is the download fast path: it writes the bytes
 * into one Writable itself, reusing two buffers, which a Readable cannot do.
 * Destroying it (or the end of either way of reading) closes the file.
 */
export class FileBody extends Readable {
  private position: number;
  /** Exclusive. */
  private readonly stop: number;

  constructor(
    private readonly handle: FileHandle,
    start: number,
    end: number,
  ) {
    super();
    this.position = start;
    this.stop = end + 1;
  }

  override _read(): void {
    const length = Math.min(READ_CHUNK_BYTES, this.stop - this.position);
    if (length <= 0) {
      this.push(null);
      return;
    }
    const buffer = Buffer.allocUnsafeSlow(length);
    this.handle.read(buffer, 0, length, this.position).then(
      ({ bytesRead }) => {
        if (bytesRead === 0) return this.destroy(shrank());
        this.position += bytesRead;
        this.push(bytesRead < length ? buffer.subarray(0, bytesRead) : buffer);
      },
      (e: Error) => this.destroy(e),
    );
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    // FileHandle.close waits for a read still in flight, so the descriptor is never reused under it.
    this.handle.close().then(
      () => callback(error),
      (e: Error) => callback(error ?? e),
    );
  }

  /**
   * Writes the rest of the file into `out` and ends it. Two buffers take turns:
   * the next chunk is read while the previous one is being written, and a
   * buffer is read into again only after its write callback, so the kernel is
   * done with it. That also bounds what is in flight to two chunks, Node's
   * back-pressure without a 'drain' round trip. `onWrite` hears the size of
   * each chunk handed to `out`. When `out` closes, finished or cut off by the
   * client, reading stops and the file is closed; a read error destroys `out`,
   * so the client sees a cut response, not a short one.
   */
  writeTo(out: Writable, onWrite: (bytes: number) => void): void {
    const remaining = this.stop - this.position;
    const size = Math.min(READ_CHUNK_BYTES, remaining);
    const free = [Buffer.allocUnsafeSlow(size)];
    if (remaining > size) free.push(Buffer.allocUnsafeSlow(size));
    let reading = false;
    let stopped = false;
    const halt = (error: Error) => {
      stopped = true;
      out.destroy(error);
      this.destroy();
    };
    const pump = () => {
      if (stopped || reading || free.length === 0 || this.position >= this.stop) return;
      reading = true;
      const buffer = free.pop()!;
      const length = Math.min(buffer.length, this.stop - this.position);
      this.handle.read(buffer, 0, length, this.position).then(({ bytesRead }) => {
        reading = false;
        if (stopped) return;
        if (bytesRead === 0) return halt(shrank());
        this.position += bytesRead;
        onWrite(bytesRead);
        out.write(buffer.subarray(0, bytesRead), (error) => {
          if (error) return halt(error);
          free.push(buffer);
          pump();
        });
        if (this.position >= this.stop) out.end();
        else pump();
      }, halt);
    };
    // A client may be gone before the first byte: its close event has passed already.
    if (out.destroyed) {
      this.destroy();
      return;
    }
    out.once("close", () => {
      stopped = true;
      this.destroy();
    });
    if (size <= 0) out.end();
    else pump();
  }
}
