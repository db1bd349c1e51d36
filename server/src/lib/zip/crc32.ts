/**
 * CRC-32 (IEEE 802.3, the ZIP and gzip checksum), table-driven with eight
 * tables ("slicing-by-8") so it consumes 8 bytes per step. node:zlib only has
 * crc32 from Node 22; this runs anywhere and keeps streaming checksums cheap.
 */
const POLY = 0xedb88320;

const TABLES = (() => {
  const t = new Int32Array(256 * 8);
  for (let i = 0; i < 256; i++) {
    let c = i;
    for (let k = 0; k < 8; k++) c = c & 1 ? POLY ^ (c >>> 1) : c >>> 1;
    t[i] = c;
  }
  for (let i = 0; i < 256; i++) {
    for (let s = 1; s < 8; s++) {
      const prev = t[(s - 1) * 256 + i]!;
      t[s * 256 + i] = (prev >>> 8) ^ t[prev & 0xff]!;
    }
  }
  return t;
})();

/** Continues `crc` (0 to start) over `data`; returns the unsigned 32-bit result. */
export function crc32(data: Uint8Array, crc = 0): number {
  const t = TABLES;
  let c = ~crc;
  let i = 0;
  const end8 = data.length - (data.length % 8);
  while (i < end8) {
    const a = (data[i]! | (data[i + 1]! << 8) | (data[i + 2]! << 16) | (data[i + 3]! << 24)) ^ c;
    const b = data[i + 4]! | (data[i + 5]! << 8) | (data[i + 6]! << 16) | (data[i + 7]! << 24);
    c =
      t[1792 + (a & 0xff)]! ^
      t[1536 + ((a >>> 8) & 0xff)]! ^
      t[1280 + ((a >>> 16) & 0xff)]! ^
      t[1024 + (a >>> 24)]! ^
      t[768 + (b & 0xff)]! ^
      t[512 + ((b >>> 8) & 0xff)]! ^
      t[256 + ((b >>> 16) & 0xff)]! ^
      t[b >>> 24]!;
    i += 8;
  }
  while (i < data.length) c = t[(c ^ data[i++]!) & 0xff]! ^ (c >>> 8);
  return ~c >>> 0;
}
