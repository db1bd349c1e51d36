/**
 * Writes ZIP files byte by byte, so tests can make the archives a real tool refuses to:
 * entries named `../x` or `/etc/x`, and entries that lie about their size (zip bombs).
 * Each entry is deflated (or stored) as given; `declaredSize` overrides the uncompressed
 * size written in the headers.
 */
import { crc32, deflateRawSync } from "node:zlib";

export interface ZipEntrySpec {
  name: string;
  data?: Buffer;
  declaredSize?: number;
  store?: boolean;
}

export function buildZip(entries: ZipEntrySpec[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const spec of entries) {
    const data = spec.data ?? Buffer.alloc(0);
    const body = spec.store ? data : deflateRawSync(data);
    const name = Buffer.from(spec.name, "utf8");
    const size = spec.declaredSize ?? data.length;
    // Sizes over 4 GiB need ZIP64 fields; the 32-bit field says 0xffffffff then.
    const zip64 = size >= 0xffffffff;
    const extra = zip64 ? zip64Extra(size, body.length) : Buffer.alloc(0);
    const fields = (central: boolean) => {
      const head = Buffer.alloc(central ? 46 : 30);
      head.writeUInt32LE(central ? 0x02014b50 : 0x04034b50, 0);
      let at = 4;
      if (central) {
        head.writeUInt16LE(45, at);
        at += 2;
      }
      head.writeUInt16LE(zip64 ? 45 : 20, at); // version needed
      head.writeUInt16LE(0x800, at + 2); // UTF-8 names
      head.writeUInt16LE(spec.store ? 0 : 8, at + 4);
      head.writeUInt16LE(0, at + 6); // time
      head.writeUInt16LE(0x5b21, at + 8); // date: 2025-09-01
      head.writeUInt32LE(crc32(data) >>> 0, at + 10);
      head.writeUInt32LE(zip64 ? 0xffffffff : body.length, at + 14);
      head.writeUInt32LE(zip64 ? 0xffffffff : size, at + 18);
      head.writeUInt16LE(name.length, at + 22);
      head.writeUInt16LE(extra.length, at + 24);
      if (central) head.writeUInt32LE(zip64 ? 0xffffffff : offset, 42);
      return head;
    };
    const local = Buffer.concat([fields(false), name, extra, body]);
    const centralExtra = zip64 ? zip64Extra(size, body.length, offset) : Buffer.alloc(0);
    const central = fields(true);
    central.writeUInt16LE(centralExtra.length, 30);
    centrals.push(Buffer.concat([central, name, centralExtra]));
    locals.push(local);
    offset += local.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

function zip64Extra(size: number, compressed: number, offset?: number): Buffer {
  const extra = Buffer.alloc(4 + 16 + (offset === undefined ? 0 : 8));
  extra.writeUInt16LE(0x0001, 0);
  extra.writeUInt16LE(extra.length - 4, 2);
  extra.writeBigUInt64LE(BigInt(size), 4);
  extra.writeBigUInt64LE(BigInt(compressed), 12);
  if (offset !== undefined) extra.writeBigUInt64LE(BigInt(offset), 20);
  return extra;
}
