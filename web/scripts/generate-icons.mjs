// Draws the ClipShare app icon (a clipboard on an indigo tile) into PNG files
// for the web manifest. Run once with `node scripts/generate-icons.mjs`; the
// output in public/ is committed, so the build does not depend on this script.
import { writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { deflateSync } from "node:zlib";

const here = dirname(fileURLToPath(import.meta.url));
const out = (name) => resolve(here, "../public", name);

const CRC_TABLE = new Uint32Array(256).map((_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf) {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}
function encodePng(size, rgba) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // RGBA
  const raw = Buffer.alloc((size * 4 + 1) * size);
  for (let y = 0; y < size; y++) {
    raw[y * (size * 4 + 1)] = 0;
    rgba.copy(raw, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(raw, { level: 9 })),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** Inside test for a rounded rectangle given in unit coordinates. */
function inRoundRect(x, y, x0, y0, x1, y1, r) {
  if (x < x0 || x > x1 || y < y0 || y > y1) return false;
  const cx = Math.min(Math.max(x, x0 + r), x1 - r);
  const cy = Math.min(Math.max(y, y0 + r), y1 - r);
  return (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
}

const TILE = [79, 70, 229];
const WHITE = [255, 255, 255];
const LINE = [165, 180, 252];

/** Colour of one point of the icon; `pad` shrinks the artwork for maskable icons. */
function sample(x, y, full, pad) {
  const tileRadius = full ? 0 : 0.2;
  if (!inRoundRect(x, y, 0, 0, 1, 1, tileRadius)) return null;
  const u = (x - pad) / (1 - 2 * pad);
  const v = (y - pad) / (1 - 2 * pad);
  const board = inRoundRect(u, v, 0.24, 0.2, 0.76, 0.84, 0.06);
  const hole = inRoundRect(u, v, 0.3, 0.28, 0.7, 0.78, 0.03);
  const clip = inRoundRect(u, v, 0.37, 0.13, 0.63, 0.27, 0.04);
  if (clip) return WHITE;
  if (board && !hole) return WHITE;
  const lines = [0.4, 0.52, 0.64];
  for (const ly of lines) {
    if (inRoundRect(u, v, 0.36, ly - 0.025, ly === 0.64 ? 0.54 : 0.64, ly + 0.025, 0.02)) return LINE;
  }
  return TILE;
}

function render(size, { full = false, pad = 0 } = {}) {
  const rgba = Buffer.alloc(size * size * 4);
  const n = 4;
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let r = 0;
      let g = 0;
      let b = 0;
      let a = 0;
      for (let sy = 0; sy < n; sy++) {
        for (let sx = 0; sx < n; sx++) {
          const c = sample((px + (sx + 0.5) / n) / size, (py + (sy + 0.5) / n) / size, full, pad);
          if (!c) continue;
          r += c[0];
          g += c[1];
          b += c[2];
          a += 1;
        }
      }
      const i = (py * size + px) * 4;
      if (a > 0) {
        rgba[i] = Math.round(r / a);
        rgba[i + 1] = Math.round(g / a);
        rgba[i + 2] = Math.round(b / a);
      }
      rgba[i + 3] = Math.round((a / (n * n)) * 255);
    }
  }
  return encodePng(size, rgba);
}

writeFileSync(out("pwa-192x192.png"), render(192));
writeFileSync(out("pwa-512x512.png"), render(512));
writeFileSync(out("maskable-512x512.png"), render(512, { full: true, pad: 0.12 }));
writeFileSync(out("apple-touch-icon.png"), render(180, { full: true, pad: 0.06 }));
console.log("icons written to public/");
