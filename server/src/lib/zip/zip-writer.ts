/**
 * A streaming ZIP writer: stored (uncompressed) entries, UTF-8 names, CRC-32
 * computed while the bytes pass, sizes and CRC in a data descriptor after each
 * entry, zip64 where sizes or offsets need it. Memory stays flat: file bodies
 * are passed through chunk by chunk; only a small record per entry is kept for
 * the central directory.
 *
 * Format: PKWARE APPNOTE 6.3.x (§4.3 structure, §4.4.4 flags, §4.5.3 zip64
 * extra field, §4.3.14-16 zip64 end records).
 */
import type { Readable } from "node:stream";
import { crc32 } from "node:zlib";

export interface ZipEntry {
  /** Path inside the archive, "/"-separated; directories may end with "/". */
  name: string;
  isDirectory: boolean;
  modified?: Date | null;
  /** Known size; decides whether the entry needs zip64 sizes. Unknown sizes always get them. */
  size?: number;
  /** The bytes; null means the file vanished and the entry is left out. */
  open?: () => Promise<Readable | null>;
}

export interface ZipOptions {
  /** Write zip64 structures for every entry and the end record (tests, or readers that want them). */
  forceZip64?: boolean;
  /** File bodies opened before the archive reaches them (default OPEN_AHEAD; 1 = one at a time). */
  openAhead?: number;
}

/**
 * How many file bodies are opened ahead of the one being written: on S3 and remote trees each
 * open is a round trip, and overlapping them keeps a ZIP of many small files from waiting on
 * each in turn. An opened body not yet read holds at most its stream's buffer.
 */
export const OPEN_AHEAD = 4;
/** Entries read ahead at most (directories open nothing, but still take memory). */
const READ_AHEAD_ENTRIES = 64;

/**
 * The entries in order, each file's body already being opened while up to `ahead` bodies
 * are pending. A body that fails to open throws when its entry's turn comes; bodies opened
 * but never reached (the consumer stopped) are destroyed.
 */
async function* openedAhead(
  entries: AsyncIterable<ZipEntry>,
  ahead: number,
): AsyncGenerator<{ entry: ZipEntry; opening: Promise<Readable | null> | null }> {
  const iterator = entries[Symbol.asyncIterator]();
  const queue: Array<{ entry: ZipEntry; opening: Promise<Readable | null> | null }> = [];
  let pending = 0;
  let done = false;
  try {
    for (;;) {
      while (!done && pending < Math.max(1, ahead) && queue.length < READ_AHEAD_ENTRIES) {
        const next = await iterator.next();
        if (next.done) {
          done = true;
          break;
        }
        const entry = next.value;
        const opening = !entry.isDirectory && entry.open ? entry.open() : null;
        // Awaited, and its error thrown, when its turn comes; this only keeps it from counting as unhandled.
        opening?.catch(() => undefined);
        if (opening) pending++;
        queue.push({ entry, opening });
      }
      const head = queue.shift();
      if (!head) return;
      if (head.opening) pending--;
      yield head;
    }
  } finally {
    for (const { opening } of queue)
      void opening?.then(
        (body) => body?.destroy(),
        () => undefined,
      );
    await iterator.return?.(undefined);
  }
}

const MAX32 = 0xffffffff;
const MAX16 = 0xffff;
const FLAG_DESCRIPTOR = 0x0008;
const FLAG_UTF8 = 0x0800;
const MADE_BY_UNIX = (3 << 8) | 45;

interface CentralRecord {
  name: Buffer;
  flags: number;
  crc: number;
  size: number;
  offset: number;
  time: number;
  date: number;
  mtime: number;
  zip64: boolean;
  external: number;
}

function dosDateTime(d: Date): { time: number; date: number } {
  const year = Math.min(Math.max(d.getFullYear(), 1980), 2107);
  return {
    time: (d.getHours() << 11) | (d.getMinutes() << 5) | Math.floor(d.getSeconds() / 2),
    date: ((year - 1980) << 9) | ((d.getMonth() + 1) << 5) | d.getDate(),
  };
}

/** Extended timestamp extra field (0x5455): the modification time in unix seconds, exact and time-zone free. */
function timestampExtra(mtime: number): Buffer {
  const b = Buffer.alloc(9);
  b.writeUInt16LE(0x5455, 0);
  b.writeUInt16LE(5, 2);
  b.writeUInt8(1, 4);
  b.writeUInt32LE(mtime >>> 0, 5);
  return b;
}

/** Zip64 extra field (0x0001) holding the given 8-byte values in APPNOTE order. */
function zip64Extra(values: number[]): Buffer {
  const b = Buffer.alloc(4 + values.length * 8);
  b.writeUInt16LE(0x0001, 0);
  b.writeUInt16LE(values.length * 8, 2);
  for (const [i, v] of values.entries()) b.writeBigUInt64LE(BigInt(v), 4 + i * 8);
  return b;
}

/** Archive-safe name: "/" separators, no leading "/", no backslashes, no "." or ".." segments. */
export function zipEntryName(name: string, isDirectory: boolean): string {
  const parts = name
    .replace(/\\/g, "_")
    .split("/")
    .filter((p) => p !== "" && p !== "." && p !== "..");
  const joined = parts.join("/");
  return isDirectory ? `${joined}/` : joined;
}

/** Produces the archive as a sequence of buffers; pulls the next file only when the consumer wants more. */
export async function* zipStream(
  entries: AsyncIterable<ZipEntry>,
  options: ZipOptions = {},
): AsyncGenerator<Buffer> {
  const force = options.forceZip64 ?? false;
  const central: CentralRecord[] = [];
  let offset = 0;

  for await (const { entry, opening } of openedAhead(entries, options.openAhead ?? OPEN_AHEAD)) {
    let body: Readable | null = null;
    if (!entry.isDirectory) {
      body = opening ? await opening : null;
      if (!body) continue;
    }
    const name = Buffer.from(zipEntryName(entry.name, entry.isDirectory), "utf8");
    if (name.length === 0 || name.length > MAX16) {
      body?.destroy();
      continue;
    }
    const modified = entry.modified ?? new Date();
    const { time, date } = dosDateTime(modified);
    const mtime = Math.floor(modified.getTime() / 1000);
    const zip64 = !entry.isDirectory && (force || entry.size === undefined || entry.size >= MAX32);
    const flags = FLAG_UTF8 | (entry.isDirectory ? 0 : FLAG_DESCRIPTOR);
    const extra = Buffer.concat([...(zip64 ? [zip64Extra([0, 0])] : []), timestampExtra(mtime)]);
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(zip64 ? 45 : 20, 4);
    header.writeUInt16LE(flags, 6);
    header.writeUInt16LE(0, 8); // stored
    header.writeUInt16LE(time, 10);
    header.writeUInt16LE(date, 12);
    header.writeUInt32LE(0, 14); // crc: in the descriptor
    header.writeUInt32LE(zip64 ? MAX32 : 0, 18);
    header.writeUInt32LE(zip64 ? MAX32 : 0, 22);
    header.writeUInt16LE(name.length, 26);
    header.writeUInt16LE(extra.length, 28);
    const localOffset = offset;
    let resumed = false;
    try {
      yield Buffer.concat([header, name, extra]);
      resumed = true;
    } finally {
      // A consumer that stopped here never reads the body: let it go.
      if (!resumed) body?.destroy();
    }
    offset += header.length + name.length + extra.length;

    let crc = 0;
    let size = 0;
    if (body) {
      try {
        for await (const chunk of body) {
          const buf = chunk as Buffer;
          crc = crc32(buf, crc);
          size += buf.length;
          yield buf;
        }
      } finally {
        body.destroy();
      }
      if (!zip64 && size >= MAX32) throw new Error(`${entry.name} grew past 4 GiB while being archived`);
      const descriptor = Buffer.alloc(zip64 ? 24 : 16);
      descriptor.writeUInt32LE(0x08074b50, 0);
      descriptor.writeUInt32LE(crc, 4);
      if (zip64) {
        descriptor.writeBigUInt64LE(BigInt(size), 8);
        descriptor.writeBigUInt64LE(BigInt(size), 16);
      } else {
        descriptor.writeUInt32LE(size, 8);
        descriptor.writeUInt32LE(size, 12);
      }
      yield descriptor;
      offset += size + descriptor.length;
    }
    const mode = entry.isDirectory ? 0o040755 : 0o100644;
    central.push({
      name,
      flags,
      crc,
      size,
      offset: localOffset,
      time,
      date,
      mtime,
      zip64,
      external: ((mode << 16) | (entry.isDirectory ? 0x10 : 0)) >>> 0,
    });
  }

  const cdOffset = offset;
  let batch: Buffer[] = [];
  let batchBytes = 0;
  for (const r of central) {
    const bigSize = r.zip64 || r.size >= MAX32;
    const bigOffset = force || r.offset >= MAX32;
    const values = [...(bigSize ? [r.size, r.size] : []), ...(bigOffset ? [r.offset] : [])];
    const extra = Buffer.concat([
      ...(values.length > 0 ? [zip64Extra(values)] : []),
      timestampExtra(r.mtime),
    ]);
    const h = Buffer.alloc(46);
    h.writeUInt32LE(0x02014b50, 0);
    h.writeUInt16LE(MADE_BY_UNIX, 4);
    h.writeUInt16LE(values.length > 0 ? 45 : 20, 6);
    h.writeUInt16LE(r.flags, 8);
    h.writeUInt16LE(0, 10);
    h.writeUInt16LE(r.time, 12);
    h.writeUInt16LE(r.date, 14);
    h.writeUInt32LE(r.crc, 16);
    h.writeUInt32LE(bigSize ? MAX32 : r.size, 20);
    h.writeUInt32LE(bigSize ? MAX32 : r.size, 24);
    h.writeUInt16LE(r.name.length, 28);
    h.writeUInt16LE(extra.length, 30);
    h.writeUInt16LE(0, 32); // comment
    h.writeUInt16LE(0, 34); // disk
    h.writeUInt16LE(0, 36); // internal attributes
    h.writeUInt32LE(r.external, 38);
    h.writeUInt32LE(bigOffset ? MAX32 : r.offset, 42);
    batch.push(h, r.name, extra);
    batchBytes += h.length + r.name.length + extra.length;
    if (batchBytes >= 64 * 1024) {
      yield Buffer.concat(batch);
      offset += batchBytes;
      batch = [];
      batchBytes = 0;
    }
  }
  if (batch.length > 0) {
    yield Buffer.concat(batch);
    offset += batchBytes;
  }
  const cdSize = offset - cdOffset;
  const count = central.length;
  const needZip64End = force || count >= MAX16 || cdOffset >= MAX32 || cdSize >= MAX32;
  const tail: Buffer[] = [];
  if (needZip64End) {
    const end64 = Buffer.alloc(56);
    end64.writeUInt32LE(0x06064b50, 0);
    end64.writeBigUInt64LE(44n, 4);
    end64.writeUInt16LE(MADE_BY_UNIX, 12);
    end64.writeUInt16LE(45, 14);
    end64.writeUInt32LE(0, 16);
    end64.writeUInt32LE(0, 20);
    end64.writeBigUInt64LE(BigInt(count), 24);
    end64.writeBigUInt64LE(BigInt(count), 32);
    end64.writeBigUInt64LE(BigInt(cdSize), 40);
    end64.writeBigUInt64LE(BigInt(cdOffset), 48);
    const locator = Buffer.alloc(20);
    locator.writeUInt32LE(0x07064b50, 0);
    locator.writeUInt32LE(0, 4);
    locator.writeBigUInt64LE(BigInt(offset), 8);
    locator.writeUInt32LE(1, 16);
    tail.push(end64, locator);
  }
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(0, 4);
  end.writeUInt16LE(0, 6);
  end.writeUInt16LE(needZip64End ? MAX16 : count, 8);
  end.writeUInt16LE(needZip64End ? MAX16 : count, 10);
  end.writeUInt32LE(needZip64End ? MAX32 : cdSize, 12);
  end.writeUInt32LE(needZip64End ? MAX32 : cdOffset, 16);
  end.writeUInt16LE(0, 20);
  tail.push(end);
  yield Buffer.concat(tail);
}
