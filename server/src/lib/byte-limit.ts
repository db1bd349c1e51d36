import { Transform, type TransformCallback } from "node:stream";
import { payloadTooLarge } from "../errors";

/** Counts bytes and fails with 413 the moment a body exceeds `maxBytes`, before it fills the disk. */
export class ByteLimit extends Transform {
  bytes = 0;
  constructor(
    private readonly maxBytes: number,
    private readonly message: () => string,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.maxBytes) callback(payloadTooLarge(this.message()));
    else callback(null, chunk);
  }
}

export function formatBytes(bytes: number): string {
  const units = ["B", "KB", "MB", "GB", "TB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(unit === 0 ? 0 : 2)} ${units[unit]}`;
}
