/**
 * SFTP writes with many WRITE requests in flight, as ssh2's own fastPut sends a file. ssh2's
 * WriteStream sends one chunk and waits for its answer before the next, and cuts a chunk longer
 * than the server's WRITE limit into requests sent one after another, so an upload moved about
 * 32 KiB per round trip. Here each chunk is cut at the limit and its WRITEs go out at once, up to
 * WRITE_BUDGET bytes unanswered; the stream takes the next chunk only while there is room, so
 * memory stays about the budget. ssh2 copies each WRITE into its packet, so a chunk is not held.
 */
import { Writable } from "node:stream";
import type { SFTPWrapper } from "ssh2";
import { closeOnDestroy, sftpLimitOf } from "./sftp-read";

/** Bytes written and not yet acknowledged per upload. */
export const WRITE_BUDGET = 2 * 1024 * 1024;

export class SftpWriter extends Writable {
  private handle: Buffer | null = null;
  private position = 0;
  private inFlight = 0;
  /** The callback of the chunk that filled the budget: called once answers make room. */
  private waiting: (() => void) | null = null;
  /** `_final`'s callback, once every chunk was sent: called when the last answer came. */
  private finishing: ((e?: Error | null) => void) | null = null;
  private readonly most: number;

  /** `failure` turns an SFTP error into the one the writer is destroyed with. */
  constructor(
    private readonly sftp: SFTPWrapper,
    private readonly path: string,
    private readonly failure: (e: unknown) => Error = (e) => e as Error,
  ) {
    super();
    this.most = sftpLimitOf(sftp, "_maxWriteLen");
  }

  override _construct(done: (e?: Error | null) => void): void {
    this.sftp.open(this.path, "w", (err, handle) => {
      if (err) return done(this.failure(err));
      this.handle = handle;
      done();
    });
  }

  override _write(chunk: Buffer, _enc: BufferEncoding, done: (e?: Error | null) => void): void {
    for (let off = 0; off < chunk.length; off += this.most) {
      const length = Math.min(this.most, chunk.length - off);
      this.inFlight += length;
      this.sftp.write(this.handle!, chunk, off, length, this.position, (err) => this.answered(err, length));
      this.position += length;
    }
    if (this.inFlight < WRITE_BUDGET) done();
    else this.waiting = () => done();
  }

  private answered(err: Error | null | undefined, length: number): void {
    this.inFlight -= length;
    if (this.destroyed) return;
    if (err) return void this.destroy(this.failure(err));
    if (this.waiting && this.inFlight < WRITE_BUDGET) {
      const next = this.waiting;
      this.waiting = null;
      next();
    }
    if (this.finishing && this.inFlight === 0) this.closeHandle(this.finishing);
  }

  override _final(done: (e?: Error | null) => void): void {
    if (this.inFlight === 0) this.closeHandle(done);
    else this.finishing = done;
  }

  /** Closes the file; the server may report a failed write only here (a full disk). */
  private closeHandle(done: (e?: Error | null) => void): void {
    this.finishing = null;
    const handle = this.handle!;
    this.handle = null;
    this.sftp.close(handle, (err) => done(err ? this.failure(err) : null));
  }

  override _destroy(err: Error | null, done: (e?: Error | null) => void): void {
    const handle = this.handle;
    this.handle = null;
    closeOnDestroy(this.sftp, handle, err, done);
  }
}
