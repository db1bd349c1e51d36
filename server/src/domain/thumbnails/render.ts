/**
 * Turning one stored image or video into a small WebP: sharp for images (its
 * pixel limit refuses decompression bombs after reading only the header), and
 * one frame from ffmpeg for videos when ffmpeg is installed. Both read a local
 * file (never a URL, never a buffer of the whole object).
 *
 * What a file's name or stored type claims only decides which renderer is
 * tried. An image is rendered only when its first bytes are one of the raster
 * formats below: an SVG, or any document format the image library could also
 * read, can include other files or fetch URLs, and so is never rendered, even
 * when it is named `.png`. ffmpeg reads only local files of container formats
 * that do not refer to other resources (no playlists, no concat scripts).
 */
import { spawn } from "node:child_process";
import { open, rm } from "node:fs/promises";
import path from "node:path";
import type SharpModule from "sharp";
import { AppError } from "../../errors";
import { lazyRequire } from "../../lib/lazy-require";

/** Larger images are refused unrendered: decoding them would take too much memory and time. */
export const MAX_INPUT_PIXELS = 100_000_000;
/** Images are read whole by the decoder; larger files are refused before any byte is read. */
export const MAX_IMAGE_BYTES = 64 * 1024 * 1024;
/** A frame that takes longer than this is given up (a stalled storage, a pathological file). */
const FFMPEG_TIMEOUT_MS = 20_000;
/** ffmpeg's output is one small scaled frame; anything bigger is not what we asked for. */
const MAX_FRAME_BYTES = 16 * 1024 * 1024;

/** libvips loaders of the raster formats above; every other loader (SVG, PDF, …) is blocked. */
const RASTER_LOADERS = [
  "VipsForeignLoadJpeg",
  "VipsForeignLoadPng",
  "VipsForeignLoadNsgif",
  "VipsForeignLoadWebp",
  "VipsForeignLoadTiff",
  "VipsForeignLoadHeif",
];

const loadSharp = lazyRequire<typeof SharpModule>("sharp", (sharp) => {
  // One generation at a time is the service's rule; libvips' own cache would only hold memory.
  sharp.cache(false);
  sharp.concurrency(1);
  // The byte check in renderImage decides what is tried; this keeps the decoder itself to
  // raster formats, whatever libvips would otherwise recognise in the bytes.
  sharp.block({ operation: ["VipsForeignLoad"] });
  sharp.unblock({ operation: RASTER_LOADERS });
});

export type ThumbnailKind = "image" | "video";

/** SVG is left out: it is a document (scripts, external references), not pixels. */
const RASTER_IMAGE = /^image\/(png|jpe?g|gif|webp|avif|heic|heif|tiff)$/;
const IMAGE_EXTENSIONS = /\.(png|jpe?g|gif|webp|avif|heic|heif|tiff?)$/i;
const VIDEO_EXTENSIONS = /\.(mp4|m4v|mov|webm|mkv|avi|ogv|mpe?g)$/i;

/** What a file can be thumbnailed as, from its stored type or, failing that, its name. */
export function thumbnailKind(contentType: string | null, name: string): ThumbnailKind | null {
  const type = (contentType ?? "").split(";")[0]!.trim().toLowerCase();
  if (RASTER_IMAGE.test(type)) return "image";
  if (type.startsWith("video/")) return "video";
  if (type && type !== "application/octet-stream") return null;
  if (IMAGE_EXTENSIONS.test(name)) return "image";
  if (VIDEO_EXTENSIONS.test(name)) return "video";
  return null;
}

export const unsupported = () =>
  new AppError(
    415,
    "thumbnail_unsupported",
    "This file has no thumbnail (not an image or video we can read)",
  );
export const imageTooLarge = (why: string) =>
  new AppError(422, "image_too_large", `Image is too large for a thumbnail: ${why}`);

export type RasterFormat = "jpeg" | "png" | "gif" | "webp" | "tiff" | "heif";

/** ISO-BMFF brands of still images: AVIF and HEIF (HEIC). */
const HEIF_BRANDS = new Set(["avif", "avis", "heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1"]);

/** The raster format the first bytes of a file are, or null for anything else (SVG, text, PDF, …). */
export function sniffRasterFormat(head: Uint8Array): RasterFormat | null {
  const b = Buffer.from(head.buffer, head.byteOffset, head.byteLength);
  const ascii = (from: number, to: number) => b.toString("latin1", from, to);
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return "jpeg";
  if (b.length >= 8 && b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return "png";
  if (ascii(0, 6) === "GIF87a" || ascii(0, 6) === "GIF89a") return "gif";
  if (ascii(0, 4) === "RIFF" && ascii(8, 12) === "WEBP") return "webp";
  if (ascii(0, 4) === "II*\0" || ascii(0, 4) === "MM\0*") return "tiff";
  if (ascii(4, 8) === "ftyp" && HEIF_BRANDS.has(ascii(8, 12))) return "heif";
  return null;
}

/** Bytes enough for every signature above. */
const SNIFF_BYTES = 16;

async function headOf(input: string | Buffer): Promise<Buffer> {
  if (typeof input !== "string") return input.subarray(0, SNIFF_BYTES);
  const file = await open(input, "r");
  try {
    const head = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await file.read(head, 0, SNIFF_BYTES, 0);
    return head.subarray(0, bytesRead);
  } finally {
    await file.close();
  }
}

/** Writes a WebP no larger than `size` × `size` of the image at `input` (a path, or bytes of a frame). */
export async function renderImage(input: string | Buffer, size: number, output: string): Promise<void> {
  const format = sniffRasterFormat(await headOf(input));
  if (!format) throw unsupported();
  const sharp = loadSharp();
  if (format === "heif" && typeof input === "string" && (await isHevc(sharp, input))) {
    // libvips reads the HEIF container (so its pixel limit applies above) but has no HEVC decoder:
    // an iPhone photo is decoded by heif-convert in a process of its own, to a PNG next to the output.
    const decoded = `${output}.heic.png`;
    try {
      await convertHeic(input, decoded);
      return await renderImage(decoded, size, output);
    } finally {
      await rm(decoded, { force: true });
    }
  }
  try {
    await sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, sequentialRead: true, failOn: "error" })
      .rotate()
      .resize({ width: size, height: size, fit: "inside", withoutEnlargement: true })
      .webp({ quality: 78, effort: 2 })
      .toFile(output);
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    if (/pixel limit/i.test(message))
      throw imageTooLarge(`more than ${MAX_INPUT_PIXELS / 1_000_000} megapixels`);
    throw unsupported();
  }
}

/** Whether the HEIF image at `input` is HEVC-coded (HEIC); refuses one over the pixel limit. */
async function isHevc(sharp: typeof SharpModule, input: string): Promise<boolean> {
  let meta: Awaited<ReturnType<ReturnType<typeof SharpModule>["metadata"]>>;
  try {
    meta = await sharp(input, { limitInputPixels: MAX_INPUT_PIXELS }).metadata();
  } catch {
    throw unsupported();
  }
  if ((meta.width ?? 0) * (meta.height ?? 0) > MAX_INPUT_PIXELS)
    throw imageTooLarge(`more than ${MAX_INPUT_PIXELS / 1_000_000} megapixels`);
  return meta.compression === "hevc";
}

/** A decode that takes longer than this is given up. */
const HEIC_TIMEOUT_MS = 20_000;
let heicProbe: Promise<boolean> | null = null;

/** heif-convert (libheif's tool) is optional, like ffmpeg: without it HEIC photos get no thumbnail. */
export function heicConverterAvailable(): Promise<boolean> {
  heicProbe ??= new Promise((resolve) => {
    const child = spawn("heif-convert", ["--help"], { stdio: "ignore" });
    child.on("error", () => resolve(false));
    child.on("close", () => resolve(true));
  });
  return heicProbe;
}

async function convertHeic(input: string, output: string): Promise<void> {
  if (!(await heicConverterAvailable())) throw unsupported();
  await new Promise<void>((resolve, reject) => {
    // An absolute path keeps a name that starts with "-" a path; the output name is ours.
    const child = spawn("heif-convert", [path.resolve(input), output], { stdio: "ignore" });
    const timer = setTimeout(() => child.kill("SIGKILL"), HEIC_TIMEOUT_MS);
    child.on("error", (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else reject(unsupported());
    });
  });
}

let ffmpegProbe: Promise<boolean> | null = null;

/** ffmpeg is optional: found once on PATH, videos simply get no thumbnail without it. */
export function ffmpegAvailable(): Promise<boolean> {
  ffmpegProbe ??= new Promise((resolve) => {
    const child = spawn("ffmpeg", ["-hide_banner", "-version"], { stdio: "ignore" });
    child.on("error", () => resolve(false));
    child.on("close", (code) => resolve(code === 0));
  });
  return ffmpegProbe;
}

/**
 * Demuxers ffmpeg may use: containers of their own media only. Left out on purpose: playlists
 * (HLS, DASH), concat scripts and every other format that opens further files or URLs.
 */
const VIDEO_DEMUXERS = "mov,matroska,webm,avi,mpeg,mpegts,ogg,flv,asf";

/** One frame (PNG bytes) of the local video file at `input`, `at` seconds in. */
function grabFrame(input: string, at: number, size: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const args = [
      ...["-hide_banner", "-loglevel", "error", "-nostdin"],
      ...["-protocol_whitelist", "file", "-format_whitelist", VIDEO_DEMUXERS],
      // "file:" keeps a name that looks like a protocol or option ("http:…", "-x") a plain path.
      ...["-ss", String(at), "-i", `file:${input}`, "-frames:v", "1", "-an", "-sn"],
      ...["-vf", `scale='min(${size},iw)':'min(${size},ih)':force_original_aspect_ratio=decrease`],
      ...["-f", "image2pipe", "-c:v", "png", "pipe:1"],
    ];
    const child = spawn("ffmpeg", args, { stdio: ["ignore", "pipe", "ignore"] });
    const chunks: Buffer[] = [];
    let length = 0;
    const timer = setTimeout(() => child.kill("SIGKILL"), FFMPEG_TIMEOUT_MS);
    child.stdout.on("data", (chunk: Buffer) => {
      length += chunk.length;
      if (length > MAX_FRAME_BYTES) child.kill("SIGKILL");
      else chunks.push(chunk);
    });
    child.on("error", (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      if (code === 0 && length > 0 && length <= MAX_FRAME_BYTES) resolve(Buffer.concat(chunks));
      else reject(unsupported());
    });
  });
}

/** A WebP of a frame a second into the video (the very first frame is often black), or its first frame. */
export async function renderVideo(input: string, size: number, output: string): Promise<void> {
  if (!(await ffmpegAvailable())) throw unsupported();
  const frame = await grabFrame(input, 1, size).catch(() => grabFrame(input, 0, size));
  await renderImage(frame, size, output);
}
