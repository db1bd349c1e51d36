/**
 * SFTP reads with many READ requests in flight, as ssh2's own fastGet reads a file into another
 * (docs/decisions/0082-remote-transfers-at-wire-speed.md). ssh2's ReadStream asks for one chunk
 * and waits for it before asking for the next, so a download moved one chunk per round trip.
 * Here the requests of up to READ_BUDGET bytes are out at once, each at most the server's READ
 * limit, and the answers are passed on in file order; memory stays about READ_BUDGET, because no
 * request goes out while the chunks already read fill the stream's buffer.
 */
import { Readable } from "node:stream";
import type { SFTPWrapper } from "ssh2";

/** Bytes in flight per download (requests out and answers not yet passed on). */
export const READ_BUDGET = 1024 * 1024;
/**
 * The largest READ ssh2 sends as one request: 34,000 bytes less its overhead, unless the server
 * announces more (OpenSSH's limits extension). A longer READ is cut by ssh2 into requests sent
 * one after another (7 MB/s against rclone's server for 32 KiB chunks, 116 MB/s for 31,952).
 */
const SSH2_DEFAULT_MAX_READ = 31_952;

/**
 * The server's READ or WRITE limit as ssh2 learned it (not public API; the default when it is not
 * there). Both are the same 31,952 bytes unless the server announces its own.
 */
export function sftpLimitOf(sftp: SFTPWrapper, field: "_maxReadLen" | "_maxWriteLen"): number {
  const limit = (sftp as unknown as Record<string, unknown>)[field];
  return typeof limit === "number" && limit > 0 ? limit : SSH2_DEFAULT_MAX_READ;
}

/** One READ: a span of the file, and its bytes once they came back. */
interface Span {
  position: number;
  length: number;
  data: Buffer | null;
}

export class SftpRangeReader extends Readable {
  private handle: Buffer | null = null;
  /** Spans asked for and not yet passed on, in file order. */
  private readonly spans: Span[] = [];
  private next: number;
  private inFlight = 0;

  private readonly chunk: number;
  private readonly most: number;

  /**
   * Bytes `start..end` (inclusive) of `path`; `failure` turns an SFTP error into the one the
   * reader is destroyed with.
   */
  constructor(
    private readonly sftp: SFTPWrapper,
    private readonly path: string,
    start: number,
    private readonly end: number,
    private readonly failure: (e: unknown) => Error,
  ) {
    super({ highWaterMark: READ_BUDGET });
    this.next = start;
    this.chunk = Math.min(sftpLimitOf(sftp, "_maxReadLen"), READ_BUDGET / 2);
    this.most = Math.floor(READ_BUDGET / this.chunk);
  }

  override _construct(done: (e?: Error | null) => void): void {
    this.sftp.open(this.path, "r", (err, handle) => {
      if (err) return done(this.failure(err));
      this.handle = handle;
      done();
    });
  }

  override _read(): void {
    this.ask();
  }

  /**
   * Sends READs while fewer than `most` are out and the buffer has room for their answers. With
   * none out it sends one regardless: Node asks for more (`_read`) before it takes the chunk being
   * read out of the buffer, and asks again only after a push, so a full buffer must not stop it.
   */
  private ask(): void {
    while (
      this.inFlight < this.most &&
      this.next <= this.end &&
      (this.inFlight === 0 ||
        this.readableLength + (this.inFlight + 1) * this.chunk <= this.readableHighWaterMark)
    ) {
      const span: Span = {
        position: this.next,
        length: Math.min(this.chunk, this.end - this.next + 1),
        data: null,
      };
      this.next += span.length;
      this.spans.push(span);
      this.request(span);
    }
  }

  private request(span: Span): void {
    this.inFlight++;
    const buffer = Buffer.allocUnsafe(span.length);
    this.sftp.read(this.handle!, buffer, 0, span.length, span.position, (err, bytesRead) => {
      this.inFlight--;
      if (this.destroyed) return;
      if (err) return void this.destroy(this.failure(err));
      if (bytesRead === 0) {
        // The file is shorter than its size said (changed while read): a cut body, not a short one.
        return void this.destroy(
          this.failure(Object.assign(new Error("The file ended early"), { code: "EOF" })),
        );
      }
      if (bytesRead < span.length) {
        // A server may answer with fewer bytes: the rest is asked for again, in its place.
        const rest: Span = {
          position: span.position + bytesRead,
          length: span.length - bytesRead,
          data: null,
        };
        this.spans.splice(this.spans.indexOf(span) + 1, 0, rest);
        span.length = bytesRead;
        this.request(rest);
      }
      span.data = bytesRead < buffer.length ? buffer.subarray(0, bytesRead) : buffer;
      this.passOn();
    });
  }

  /** Passes on the chunks that arrived in order, then asks for more (or ends). */
  private passOn(): void {
    while (this.spans[0]?.data) this.push(this.spans.shift()!.data);
    if (this.spans.length === 0 && this.next > this.end) this.push(null);
    else this.ask();
  }

  override _destroy(err: Error | null, done: (e?: Error | null) => void): void {
    const handle = this.handle;
    this.handle = null;
    closeOnDestroy(this.sftp, handle, err, done);
  }
}

/**
 * A destroyed SFTP stream's last step: answers still on their way are dropped, and the file
 * handle (if still open) is closed before the stream reports 'close', so a late close cannot
 * bring a file back that was deleted after the stream ended.
 */
export function closeOnDestroy(
  sftp: SFTPWrapper,
  handle: Buffer | null,
  err: Error | null,
  done: (e?: Error | null) => void,
): void {
  if (!handle) done(err);
  else sftp.close(handle, () => done(err));
}
