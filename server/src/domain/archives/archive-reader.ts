/**
 * Looking inside archives without unpacking them: the entries of a ZIP, TAR or TAR.GZ,
 * and one entry streamed out. Nothing is written to disk and memory stays flat:
 * - ZIP is read by byte ranges (its central directory at the end, then one entry's
 *   bytes), so a listing costs a few reads whatever the archive's size;
 * - TAR and TAR.GZ have no directory: the stream is read from the start, headers kept,
 *   bodies skipped, and the scan stops after `SCAN_LIMIT_BYTES` of (uncompressed) tar; a
 *   TAR.GZ that inflates more than `TAR_GZ_MAX_RATIO` times what was read of it is refused
 *   (`archive_refused`) as soon as it does, so a gzip bomb costs a few megabytes of inflating.
 * Archives are untrusted input:
 * - a listing holds at most `MAX_LISTED_ENTRIES` entries (then `truncated`);
 * - entry names that would leave a folder when unpacked (`..`, absolute, drive letters,
 *   backslashes, NUL) are listed as `unsafe` and never served;
 * - an entry whose declared size is over `MAX_ENTRY_BYTES`, or that inflates more than
 *   `MAX_RATIO` times its compressed size, is refused before any byte is inflated (zip
 *   bombs); one that inflates to more than it declared is cut off (the inflater checks).
 * Nested archives are entries like any other: nothing here opens them.
 */
import { PassThrough, type Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGunzip } from "node:zlib";
import type { FsArchiveEntry, FsArchiveListing } from "@clipshare/shared";
import { AppError, badRequest, notFound } from "../../errors";

export type ArchiveKind = FsArchiveListing["kind"];

/** Where an archive's bytes come from: its size and reads of inclusive byte ranges. */
export interface ArchiveSource {
  size: number;
  read(start: number, end: number): Promise<Readable>;
}

/** The wire shapes (packages/shared): an entry and a listing. */
export type ArchiveEntry = FsArchiveEntry;
export type ArchiveListing = FsArchiveListing;

export const MAX_LISTED_ENTRIES = 10_000;
export const MAX_ENTRY_BYTES = 4 * 1024 ** 3;
export const MAX_RATIO = 1000;
/** Entries this small may inflate at any ratio (a file of zeros compresses very well). */
const RATIO_EXEMPT_BYTES = 16 * 1024 * 1024;
export const SCAN_LIMIT_BYTES = 1024 ** 3;
/**
 * Listing a TAR.GZ inflates it all the way, so its bound is tighter than an entry's: deflate
 * reaches about 1032:1 on zeros, which MAX_RATIO would let through for most of the scan,
 * while real archives (text, code, photos, even zero-padded tar blocks) stay far below 100:1.
 */
export const TAR_GZ_MAX_RATIO = 100;

/** An archive file of a storage as a source: its size and range reads of `path`. */
export function archiveSourceOf(
  driver: { read(path: string, range: { start: number; end: number }): Promise<{ body: Readable }> },
  path: string,
  size: number,
): ArchiveSource {
  return { size, read: async (start, end) => (await driver.read(path, { start, end })).body };
}

/** 400 for a file whose name is not of an archive ClipShare opens. */
export const notAnArchive = () =>
  badRequest("This file is not an archive ClipShare can open (zip, tar, tar.gz)", "not_an_archive");

/** The archive kind a file name says, or null. */
export function archiveKindOf(name: string): ArchiveKind | null {
  const lower = name.toLowerCase();
  if (lower.endsWith(".tar.gz") || lower.endsWith(".tgz")) return "tar.gz";
  if (lower.endsWith(".tar")) return "tar";
  if (/\.(zip|jar|apk|epub|docx|xlsx|pptx|odt|ods|odp)$/.test(lower)) return "zip";
  return null;
}

/** A stored file opened as an archive by its name (400 `not_an_archive` for another name). */
export function openedArchive(
  driver: Parameters<typeof archiveSourceOf>[0],
  file: { path: string; name: string; size: number },
): { kind: ArchiveKind; source: ArchiveSource } {
  const kind = archiveKindOf(file.name);
  if (!kind) throw notAnArchive();
  return { kind, source: archiveSourceOf(driver, file.path, file.size) };
}

/** Whether unpacking `name` could write outside the folder it is unpacked into. */
export function isUnsafeEntryName(name: string): boolean {
  if (name.includes("\0") || name.includes("\\")) return true;
  if (name.startsWith("/") || /^[a-zA-Z]:/.test(name)) return true;
  return name.split("/").some((segment) => segment === "..");
}

const damaged = (detail: string) =>
  new AppError(422, "archive_unreadable", "The archive cannot be read (damaged or not this format)", {
    detail,
  });

const archiveRefused = () =>
  new AppError(
    422,
    "archive_refused",
    `This archive cannot be opened here: it unpacks to more than ${TAR_GZ_MAX_RATIO} times its size`,
  );

export const entryRefused = (reason: string) =>
  new AppError(422, "archive_entry_refused", `This entry cannot be opened here: ${reason}`);

export async function listArchive(source: ArchiveSource, kind: ArchiveKind): Promise<ArchiveListing> {
  return kind === "zip" ? listZip(source) : listTar(source, kind);
}

/** One entry's bytes, and its declared size. 404 when the archive has no such safe entry. */
export async function openArchiveEntry(
  source: ArchiveSource,
  kind: ArchiveKind,
  path: string,
): Promise<{ body: Readable; size: number }> {
  if (isUnsafeEntryName(path)) throw badRequest("This entry name is not allowed", "archive_entry_refused");
  return kind === "zip" ? openZipEntry(source, path) : openTarEntry(source, kind, path);
}

const entryNotFound = () => notFound("No such entry in the archive", "archive_entry_not_found");

function guardSize(size: number, compressed: number | null): void {
  if (size > MAX_ENTRY_BYTES) throw entryRefused(`larger than ${MAX_ENTRY_BYTES / 1024 ** 3} GiB unpacked`);
  if (compressed !== null && size > RATIO_EXEMPT_BYTES && size > compressed * MAX_RATIO)
    throw entryRefused(`it would inflate more than ${MAX_RATIO} times`);
}

// ---- ZIP --------------------------------------------------------------------

type Yauzl = typeof import("yauzl");
type ZipFile = import("yauzl").ZipFile;
type ZipEntry = import("yauzl").Entry;

let yauzlModule: Promise<Yauzl> | undefined;
const loadYauzl = () => {
  yauzlModule ??= import("yauzl").then((m) => ((m as { default?: Yauzl }).default ?? m) as Yauzl);
  return yauzlModule;
};

/** Opens the ZIP through range reads; entries are read one at a time on demand. */
async function openZip(source: ArchiveSource): Promise<ZipFile> {
  const yauzl = await loadYauzl();
  class RangeReader extends yauzl.RandomAccessReader {
    override _readStreamForRange(start: number, end: number): Readable {
      // yauzl's end is exclusive and wants a stream at once: hand it one that the read fills.
      const out = new PassThrough();
      if (end <= start) {
        out.end();
        return out;
      }
      source.read(start, end - 1).then(
        (body) => pipeline(body, out).catch((e) => out.destroy(e)),
        (e) => out.destroy(e),
      );
      return out;
    }
  }
  const reader = new RangeReader();
  return new Promise((resolve, reject) => {
    yauzl.fromRandomAccessReader(
      reader,
      source.size,
      // Names are decoded and judged here (isUnsafeEntryName): yauzl would refuse the whole archive.
      { lazyEntries: true, autoClose: false, decodeStrings: false, validateEntrySizes: true },
      (err, zip) => (err || !zip ? reject(damaged(err?.message ?? "no zip")) : resolve(zip)),
    );
  });
}

/** Names are UTF-8 when the entry says so (flag bit 11), else the old DOS code page; Latin-1 reads its ASCII right. */
const zipEntryName = (entry: ZipEntry) =>
  Buffer.from(entry.fileName as unknown as Buffer).toString(
    entry.generalPurposeBitFlag & 0x800 ? "utf8" : "latin1",
  );

function zipEntryInfo(entry: ZipEntry): ArchiveEntry {
  const name = zipEntryName(entry);
  let modified: string | null = null;
  try {
    modified = entry.getLastModDate().toISOString();
  } catch {}
  return {
    path: name,
    is_directory: name.endsWith("/"),
    size: entry.uncompressedSize,
    compressed_size: entry.compressedSize,
    modified,
    unsafe: isUnsafeEntryName(name),
    encrypted: (entry.generalPurposeBitFlag & 0x1) !== 0,
  };
}

/** Walks the central directory; `visit` returns true to stop. */
function walkZip(zip: ZipFile, visit: (entry: ZipEntry) => boolean): Promise<boolean> {
  return new Promise((resolve, reject) => {
    let stopped = false;
    zip.on("entry", (entry: ZipEntry) => {
      if (visit(entry)) {
        stopped = true;
        resolve(true);
      } else zip.readEntry();
    });
    zip.on("end", () => {
      if (!stopped) resolve(false);
    });
    zip.on("error", (e: Error) => reject(damaged(e.message)));
    zip.readEntry();
  });
}

async function listZip(source: ArchiveSource): Promise<ArchiveListing> {
  const zip = await openZip(source);
  try {
    const entries: ArchiveEntry[] = [];
    const truncated = await walkZip(zip, (entry) => {
      if (entries.length >= MAX_LISTED_ENTRIES) return true;
      entries.push(zipEntryInfo(entry));
      return false;
    });
    return { kind: "zip", entries, truncated, total_size: sumSizes(entries) };
  } finally {
    zip.close();
  }
}

async function openZipEntry(source: ArchiveSource, path: string): Promise<{ body: Readable; size: number }> {
  const zip = await openZip(source);
  try {
    let found: ZipEntry | undefined;
    let seen = 0;
    await walkZip(zip, (entry) => {
      seen++;
      if (zipEntryName(entry) === path) found = entry;
      return found !== undefined || seen >= MAX_LISTED_ENTRIES;
    });
    if (!found || path.endsWith("/")) throw entryNotFound();
    const info = zipEntryInfo(found);
    if (info.encrypted) throw entryRefused("it is encrypted");
    guardSize(info.size, info.compressed_size);
    const entry = found;
    const body = await new Promise<Readable>((resolve, reject) =>
      zip.openReadStream(entry, (err, stream) =>
        err || !stream ? reject(damaged(err?.message ?? "")) : resolve(stream),
      ),
    );
    body.once("close", () => zip.close());
    return { body, size: info.size };
  } catch (e) {
    zip.close();
    throw e;
  }
}

// ---- TAR --------------------------------------------------------------------

type TarStream = typeof import("tar-stream");
let tarModule: Promise<TarStream> | undefined;
const loadTar = () => {
  tarModule ??= import("tar-stream").then((m) => ((m as { default?: TarStream }).default ?? m) as TarStream);
  return tarModule;
};

/** An entry body from tar-stream (a streamx stream: pipe, resume and 'end' as Node's). */
interface TarBody {
  resume(): unknown;
  pipe<T extends NodeJS.WritableStream>(destination: T): T;
  once(event: "end", listener: () => void): unknown;
}

interface TarHeader {
  name: string;
  size?: number;
  type?: string | null;
  mtime?: Date;
}

/**
 * Reads the TAR stream from the start, calling `visit` for each header with its body
 * stream; `visit` must drain or take the body. Stops (truncated) after SCAN_LIMIT_BYTES.
 */
async function scanTar(
  source: ArchiveSource,
  kind: ArchiveKind,
  visit: (header: TarHeader, body: TarBody, stop: () => void) => void,
): Promise<{ truncated: boolean }> {
  const tar = await loadTar();
  const raw = await source.read(0, Math.max(0, source.size - 1));
  const extract = tar.extract();
  let read = 0;
  let scanned = 0;
  let truncated = false;
  let stopped = false;
  let refused = false;
  const stop = () => {
    stopped = true;
    raw.destroy();
    extract.destroy();
  };
  const reading = new Transform({
    transform(chunk: Buffer, _enc, done) {
      read += chunk.length;
      done(null, chunk);
    },
  });
  const counter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      scanned += chunk.length;
      if (kind === "tar.gz" && scanned > RATIO_EXEMPT_BYTES && scanned > read * TAR_GZ_MAX_RATIO) {
        refused = true;
        stop();
        return done();
      }
      if (scanned > SCAN_LIMIT_BYTES) {
        truncated = true;
        stop();
        return done();
      }
      done(null, chunk);
    },
  });
  extract.on("entry", (header, entryBody, next) => {
    const body = entryBody as unknown as TarBody;
    body.once("end", next);
    visit(header, body, stop);
  });
  const stages: NodeJS.ReadableStream[] =
    kind === "tar.gz" ? [raw, reading, createGunzip(), counter] : [raw, counter];
  try {
    await pipeline([...stages, extract] as never);
  } catch (e) {
    if (!stopped) throw damaged((e as Error).message);
  }
  if (refused) throw archiveRefused();
  return { truncated };
}

const tarEntryInfo = (header: TarHeader): ArchiveEntry => ({
  path: header.name,
  is_directory: header.type === "directory",
  size: header.size ?? 0,
  compressed_size: null,
  modified: header.mtime ? header.mtime.toISOString() : null,
  unsafe: isUnsafeEntryName(header.name),
  encrypted: false,
});

async function listTar(source: ArchiveSource, kind: ArchiveKind): Promise<ArchiveListing> {
  const entries: ArchiveEntry[] = [];
  let full = false;
  const { truncated } = await scanTar(source, kind, (header, body, stop) => {
    if (entries.length >= MAX_LISTED_ENTRIES) {
      full = true;
      stop();
      return;
    }
    if (header.type === "file" || header.type === "directory" || header.type === "contiguous-file")
      entries.push(tarEntryInfo(header));
    body.resume();
  });
  return { kind, entries, truncated: truncated || full, total_size: sumSizes(entries) };
}

async function openTarEntry(
  source: ArchiveSource,
  kind: ArchiveKind,
  path: string,
): Promise<{ body: Readable; size: number }> {
  return new Promise((resolve, reject) => {
    let found = false;
    scanTar(source, kind, (header, body, stop) => {
      if (found || header.name !== path || header.type !== "file") {
        body.resume();
        return;
      }
      found = true;
      const size = header.size ?? 0;
      try {
        guardSize(size, null);
      } catch (e) {
        stop();
        reject(e);
        return;
      }
      // The caller streams the body out; once it has ended the scan has nothing left to find.
      const out = new PassThrough();
      let ended = false;
      body.pipe(out);
      body.once("end", () => {
        ended = true;
        stop();
      });
      // A reader that goes away early leaves the scan nobody to feed: end it, closing the file.
      out.once("close", () => {
        if (!ended) stop();
      });
      resolve({ body: out, size });
    }).then(
      () => {
        if (!found) reject(entryNotFound());
      },
      (e) => {
        if (!found) reject(e);
      },
    );
  });
}

const sumSizes = (entries: ArchiveEntry[]) => entries.reduce((n, e) => n + (e.is_directory ? 0 : e.size), 0);
