import { describe, expect, it } from "vitest";
import { exifItemAsJpeg, heifExifExtent } from "./heif-exif";

const box = (type: string, ...parts: Uint8Array[]): Uint8Array => {
  const size = 8 + parts.reduce((n, p) => n + p.byteLength, 0);
  const out = new Uint8Array(size);
  new DataView(out.buffer).setUint32(0, size);
  out.set(new TextEncoder().encode(type), 4);
  let at = 8;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
};
const bytes = (...values: number[]) => new Uint8Array(values);
const u16 = (n: number) => bytes(n >> 8, n & 0xff);
const u32 = (n: number) => bytes(n >>> 24, (n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff);
const text = (s: string) => new TextEncoder().encode(s);

/** A TIFF block with one IFD0 entry: Make = "ClipCam". */
function tiffWithMake(): Uint8Array {
  const tiff = new Uint8Array(34);
  const v = new DataView(tiff.buffer);
  tiff.set(text("II*\0"), 0);
  v.setUint32(4, 8, true);
  v.setUint16(8, 1, true); // one entry
  v.setUint16(10, 0x010f, true); // Make
  v.setUint16(12, 2, true); // ASCII
  v.setUint32(14, 8, true); // 8 characters with the NUL
  v.setUint32(18, 26, true); // at offset 26
  v.setUint32(22, 0, true); // no next IFD
  tiff.set(text("ClipCam\0"), 26);
  return tiff;
}

/** A HEIF file whose Exif item (TIFF-header offset `prefix.length`, then `prefix` and the block) sits in `mdat`. */
function heif(prefix: Uint8Array): Uint8Array {
  const item = new Uint8Array([...u32(prefix.byteLength), ...prefix, ...tiffWithMake()]);
  const ftyp = box("ftyp", text("heic"), u32(0), text("mif1heic"));
  const infe = box("infe", bytes(2, 0, 0, 0), u16(1), u16(0), text("Exif"), bytes(0));
  const iinf = box("iinf", bytes(0, 0, 0, 0), u16(1), infe);
  const ilocFor = (offset: number) =>
    box(
      "iloc",
      bytes(0, 0, 0, 0),
      u16(0x4400),
      u16(1),
      u16(1),
      u16(0),
      u16(1),
      u32(offset),
      u32(item.byteLength),
    );
  // The item's offset depends on the size of what comes before it; the iloc box's size does not.
  const metaSize = 8 + 4 + iinf.byteLength + ilocFor(0).byteLength;
  const offset = ftyp.byteLength + metaSize + 8;
  const meta = box("meta", bytes(0, 0, 0, 0), iinf, ilocFor(offset));
  return new Uint8Array([...ftyp, ...meta, ...box("mdat", item)]);
}

describe("EXIF of HEIF photos", () => {
  it.each([
    ["as libheif writes it (no prefix)", new Uint8Array(0)],
    ["as phones write it (Exif\\0\\0 first)", text("Exif\0\0")],
  ])("finds the Exif item %s and hands exifr a JPEG it reads", async (_how, prefix) => {
    const file = heif(prefix);
    const extent = heifExifExtent(file);
    expect(extent).not.toBeNull();
    const jpeg = exifItemAsJpeg(file.subarray(extent!.offset, extent!.offset + extent!.length));
    expect(jpeg).not.toBeNull();
    const { default: exifr } = await import("exifr/dist/lite.esm.mjs");
    const tags = (await exifr.parse(jpeg!, { tiff: true })) as { Make?: string };
    expect(tags.Make).toBe("ClipCam");
  });

  it("a file without an Exif item, or cut short, has none", () => {
    expect(heifExifExtent(box("ftyp", text("heic")))).toBeNull();
    expect(heifExifExtent(heif(new Uint8Array(0)).subarray(0, 40))).toBeNull();
  });
});
