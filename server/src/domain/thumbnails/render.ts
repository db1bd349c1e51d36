/**
 * Turning one stored image or video into a small WebP: sharp for images (its
 * pixel limit refuses decompression bombs after reading only the header), and
 * one frame from ffmpeg for videos when ffmpeg is installed. Both read from a
 * file path or URL, never from a buffer of the whole object.
 */
import { spawn } from "node:child_process";
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

const loadSharp = lazyRequire<typeof SharpModule>("sharp", (sharp) => {
  // One generation at a time is the service's rule; libvips' own cache would only hold memory.
  sharp.cache(false);
  sharp.concurrency(1);
});

export type ThumbnailKind = "image" | "video";

/** SVG is left out: it is a document (scripts, external references), not pixels. */
const RASTER_IMAGE = /^image\/(png|jpe?g|gif|webp|avif|heic|heif|tiff|bmp)$/;
const IMAGE_EXTENSIONS = /\.(png|jpe?g|gif|webp|avif|heic|heif|tiff?|bmp)$/i;
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

/** Writes a WebP no larger than `size` × `size` of the image at `input` (a path, or bytes of a frame). */
export async function renderImage(input: string | Buffer, size: number, output: string): Promise<void> {
  const sharp = loadSharp();
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

/** One frame (PNG bytes) of the video at `input` (a file path or an http URL), `at` seconds in. */
function grabFrame(input: string, at: number, size: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const args = [
      ...["-hide_banner", "-loglevel", "error", "-nostdin"],
      ...["-protocol_whitelist", "file,http,https,tcp,tls,crypto"],
      ...["-ss", String(at), "-i", input, "-frames:v", "1", "-an", "-sn"],
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
