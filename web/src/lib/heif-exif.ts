/**
 * The EXIF block of a HEIF/HEIC photo, found through its boxes (ISO/IEC 23008-12): the
 * `meta` box's `iinf` names the item of type `Exif`, its `iloc` says where the item's
 * bytes are; they start with the offset of the TIFF header. exifr's own HEIC reader
 * trips over files whose EXIF item has no "Exif\0\0" prefix (libheif writes none), so the
 * TIFF block is handed to it wrapped as a JPEG APP1 segment, which every exifr build reads.
 * Pure byte work apart from `readHeifExif`, which fetches what it needs by range.
 */

interface Extent {
  offset: number;
  length: number;
}

/** A box: its type, where its content starts and where the box ends. */
interface Box {
  type: string;
  start: number;
  end: number;
}

function* boxes(view: DataView, from: number, to: number): Generator<Box> {
  let at = from;
  while (at + 8 <= to) {
    let size = view.getUint32(at);
    const type = String.fromCharCode(...new Uint8Array(view.buffer, view.byteOffset + at + 4, 4));
    let header = 8;
    if (size === 1) {
      if (at + 16 > to) return;
      size = Number(view.getBigUint64(at + 8));
      header = 16;
    } else if (size === 0) size = to - at;
    if (size < header || at + size > to) return;
    yield { type, start: at + header, end: at + size };
    at += size;
  }
}

const child = (view: DataView, box: Box, type: string, skip = 0) =>
  [...boxes(view, box.start + skip, box.end)].find((b) => b.type === type);

/** Reads an unsigned big-endian number of 0, 4 or 8 bytes. */
function uint(view: DataView, at: number, bytes: number): number {
  if (bytes === 0) return 0;
  if (bytes === 4) return view.getUint32(at);
  if (bytes === 8) return Number(view.getBigUint64(at));
  throw new RangeError(`unexpected field size ${bytes}`);
}

/** Where the EXIF item lies in the file, from the start of a HEIF file (which must hold its `meta` box). */
export function heifExifExtent(bytes: Uint8Array): Extent | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  try {
    const meta = [...boxes(view, 0, view.byteLength)].find((b) => b.type === "meta");
    if (!meta) return null;
    // meta, iinf and iloc are full boxes: a version byte and three flag bytes first.
    const iinf = child(view, meta, "iinf", 4);
    const iloc = child(view, meta, "iloc", 4);
    if (!iinf || !iloc) return null;
    const iinfVersion = view.getUint8(iinf.start);
    const entriesAt = iinf.start + 4 + (iinfVersion === 0 ? 2 : 4);
    let exifId: number | null = null;
    for (const infe of boxes(view, entriesAt, iinf.end)) {
      if (infe.type !== "infe") continue;
      const version = view.getUint8(infe.start);
      if (version < 2) continue;
      const idBytes = version === 2 ? 2 : 4;
      const id = idBytes === 2 ? view.getUint16(infe.start + 4) : view.getUint32(infe.start + 4);
      const typeAt = infe.start + 4 + idBytes + 2;
      const type = String.fromCharCode(...bytes.subarray(typeAt, typeAt + 4));
      if (type === "Exif") exifId = id;
    }
    if (exifId === null) return null;
    const version = view.getUint8(iloc.start);
    let at = iloc.start + 4;
    const sizes = view.getUint16(at);
    at += 2;
    const offsetSize = sizes >> 12;
    const lengthSize = (sizes >> 8) & 0xf;
    const baseSize = (sizes >> 4) & 0xf;
    const indexSize = version === 1 || version === 2 ? sizes & 0xf : 0;
    const count = version < 2 ? view.getUint16(at) : view.getUint32(at);
    at += version < 2 ? 2 : 4;
    for (let i = 0; i < count; i++) {
      const id = version < 2 ? view.getUint16(at) : view.getUint32(at);
      at += version < 2 ? 2 : 4;
      let method = 0;
      if (version === 1 || version === 2) {
        method = view.getUint16(at) & 0xf;
        at += 2;
      }
      at += 2; // data reference index
      const base = uint(view, at, baseSize);
      at += baseSize;
      const extents = view.getUint16(at);
      at += 2;
      let first: Extent | null = null;
      for (let e = 0; e < extents; e++) {
        at += indexSize;
        const offset = uint(view, at, offsetSize);
        at += offsetSize;
        const length = uint(view, at, lengthSize);
        at += lengthSize;
        first ??= { offset: base + offset, length };
      }
      // Only items stored in the file itself (construction method 0), in one piece.
      if (id === exifId) return method === 0 && extents === 1 ? first : null;
    }
    return null;
  } catch {
    return null; // a box cut short or damaged: no details
  }
}

/** The EXIF item's bytes (a 4-byte TIFF-header offset, then the block) as a JPEG exifr can read. */
export function exifItemAsJpeg(item: Uint8Array): Uint8Array | null {
  if (item.byteLength < 8) return null;
  const skip = 4 + new DataView(item.buffer, item.byteOffset, item.byteLength).getUint32(0);
  const tiff = item.subarray(skip);
  const segment = 2 + 6 + tiff.byteLength;
  if (skip >= item.byteLength || segment > 0xffff) return null;
  const jpeg = new Uint8Array(4 + segment - 2 + 2 + 2);
  jpeg.set([0xff, 0xd8, 0xff, 0xe1, segment >> 8, segment & 0xff], 0);
  jpeg.set([0x45, 0x78, 0x69, 0x66, 0, 0], 6); // "Exif\0\0"
  jpeg.set(tiff, 12);
  jpeg.set([0xff, 0xd9], 12 + tiff.byteLength);
  return jpeg;
}

/** How much of the file's start is read to find its boxes (the `meta` box comes first). */
const HEAD_BYTES = 256 * 1024;

async function readRange(src: string, start: number, end: number): Promise<Uint8Array> {
  const res = await fetch(src, { headers: { Range: `bytes=${start}-${end}` } });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  const bytes = new Uint8Array(await res.arrayBuffer());
  // A server that ignores Range sends the whole file.
  return res.status === 206 ? bytes : bytes.subarray(start, end + 1);
}

/** The EXIF block of the HEIF photo at `src`, as a JPEG for exifr; null when it has none. */
export async function readHeifExif(src: string): Promise<Uint8Array | null> {
  const head = await readRange(src, 0, HEAD_BYTES - 1);
  const extent = heifExifExtent(head);
  if (!extent) return null;
  const end = extent.offset + extent.length;
  const item =
    end <= head.byteLength ? head.subarray(extent.offset, end) : await readRange(src, extent.offset, end - 1);
  return exifItemAsJpeg(item);
}
