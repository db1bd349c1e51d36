import { createWriteStream, type Dirent } from "node:fs";
import * as fs from "node:fs/promises";
import * as nodePath from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { isAppError } from "../../errors";
import { taggedTempName } from "../../lib/writer-tag";
import { invalidPath, isADirectory, notADirectory, targetExists, uploadAborted } from "../errors";
import { FileBody } from "../file-body";
import { mimeTypeFor } from "../mime";
import { isSameOrInside, joinPath, normalizePath } from "../path-safety";
import { LOCAL_TEMP_DIR } from "../reserved-names";
import { MeasuringStream } from "../streams";
import type {
  AbandonedAges,
  AbandonedCounts,
  ListOptions,
  ListPage,
  MoveOptions,
  ReadRange,
  ReadResult,
  StorageDriver,
  StorageEntry,
  WriteOptions,
  WriteResult,
} from "../types";
import { resolveConfined, sweepTempDir, WRITE_TEMP } from "./local-confine";
import {
  decodeCursor,
  emptyStream,
  encodeCursor,
  entryOf,
  errnoOf,
  etagOf,
  mapFsError,
  syncDir,
} from "./local-fs";
import { LocalMultipart } from "./local-multipart";
import { MultipartDriver, streamedCapabilities } from "./multipart-driver";
import { resolveRange } from "./range";

export { LOCAL_TEMP_DIR };

const DEFAULT_LIMIT = 1000;

export interface LocalDriverConfig {
  /** Directory holding the files; created on first use. */
  root: string;
}

/**
 * Files under one directory. Every path is confined to the root: after
 * normalization (path-safety.ts) the nearest existing ancestor is resolved with
 * realpath, so a symlink may point anywhere inside the root but never out of
 * it, nor into the hidden temp dir. `confinedTo(dir)` narrows that boundary to
 * the real location of one directory (an API key's base path), by the same
 * rule. A symlink swapped in between check and use is out of scope: whoever
 * can write the root directly is already trusted.
 */
export class LocalDriver extends MultipartDriver implements StorageDriver {
  readonly kind = "LOCAL" as const;
  readonly capabilities = streamedCapabilities(true, false);

  private readonly configuredRoot: string;
  private ready: Promise<{ root: string; temp: string }> | null = null;
  protected readonly multipart: LocalMultipart;
  /** Root-relative directory whose real location bounds every path ("" = the root itself). */
  private readonly boundary: string;
  /** The unconfined driver of this root, which owns the root and temp dir set-up. */
  private readonly unconfined: LocalDriver;

  constructor(config: LocalDriverConfig, confine?: { from: LocalDriver; dir: string }) {
    super();
    this.configuredRoot = nodePath.resolve(config.root);
    this.boundary = confine?.dir ?? "";
    this.unconfined = confine?.from ?? this;
    this.multipart = new LocalMultipart({
      tempDir: async () => (await this.dirs()).temp,
      normalize: (p) => this.normalize(p),
      write: (p, body, o) => this.write(p, body, o),
      place: (p, file) => this.place(p, file),
    });
  }

  /**
   * A view of this storage in which every path, after following symlinks, must
   * stay inside the real location of `dir`; links leading elsewhere are refused
   * (403) and hidden from listings, as links leaving the root are.
   */
  confinedTo(dir: string): LocalDriver {
    const boundary = normalizePath(dir);
    if (boundary === "") return this.unconfined;
    return new LocalDriver({ root: this.configuredRoot }, { from: this.unconfined, dir: boundary });
  }

  private dirs(): Promise<{ root: string; temp: string }> {
    if (this.unconfined !== this) return this.unconfined.dirs();
    this.ready ??= (async () => {
      await fs.mkdir(nodePath.join(this.configuredRoot, LOCAL_TEMP_DIR), { recursive: true });
      const root = await fs.realpath(this.configuredRoot);
      return { root, temp: nodePath.join(root, LOCAL_TEMP_DIR) };
    })();
    this.ready.catch(() => {
      this.ready = null;
    });
    return this.ready;
  }

  private normalize(path: string): string {
    const rel = normalizePath(path);
    if (rel.split("/", 1)[0] === LOCAL_TEMP_DIR) throw invalidPath("Path is reserved", { path });
    return rel;
  }

  /** Real location of the boundary directory (resolved per call: links in it may change). */
  private async boundaryReal(): Promise<string> {
    const { root } = await this.dirs();
    if (this.boundary === "") return root;
    return (await this.locate(this.boundary, true, root)).abs;
  }

  /**
   * Absolute location for a virtual path. With `followFinal` the last segment
   * may be a symlink and its target must be confined (reads, listings); without
   * it only the parent is resolved, so the entry itself is acted on (removing
   * or renaming a link never touches its target). The result must lie inside
   * `limit` (default: the boundary's real location) and outside the temp dir.
   */
  private async locate(
    path: string,
    followFinal: boolean,
    limit?: string,
  ): Promise<{ rel: string; abs: string }> {
    const rel = this.normalize(path);
    const { root, temp } = await this.dirs();
    const bound = limit ?? (await this.boundaryReal());
    return { rel, abs: await resolveConfined(rel, { root, temp, bound, followFinal }) };
  }

  async localPath(path: string): Promise<string> {
    return (await this.locate(path, true)).abs;
  }

  async stat(path: string): Promise<StorageEntry | null> {
    return this.statWithin(path);
  }

  private async statWithin(path: string, limit?: string): Promise<StorageEntry | null> {
    const { rel, abs } = await this.locate(path, true, limit);
    try {
      return entryOf(rel, await fs.stat(abs, { bigint: true }));
    } catch (e) {
      const code = errnoOf(e);
      if (code === "ENOENT" || code === "ENOTDIR") return null;
      throw mapFsError(e, rel);
    }
  }

  async exists(path: string): Promise<boolean> {
    return (await this.stat(path)) !== null;
  }

  async list(dir: string, options: ListOptions = {}): Promise<ListPage> {
    const bound = await this.boundaryReal();
    const { rel, abs } = await this.locate(dir, true, bound);
    const { root } = await this.dirs();
    const limit = Math.min(Math.max(Math.trunc(options.limit ?? DEFAULT_LIMIT), 1), DEFAULT_LIMIT);
    let dirents: Dirent[];
    try {
      dirents = await fs.readdir(abs, { withFileTypes: true });
    } catch (e) {
      throw mapFsError(e, rel);
    }
    const kinds = new Map<string, boolean>(); // name → is a symlink
    for (const d of dirents) {
      // By the real location: a link to the root lists the root, temp dir included.
      if (abs === root && d.name === LOCAL_TEMP_DIR) continue;
      if (isPlainName(d.name)) kinds.set(d.name, d.isSymbolicLink());
    }
    // Reading all names and sorting per page keeps cursors stable without server state. UTF-8
    // byte order (S3's) is code-point order, which plain string comparison gives except for
    // astral characters; the byte keys are built once, not per comparison.
    const sorted = [...kinds.keys()]
      .map((name) => ({ name, key: Buffer.from(name) }))
      .sort((a, b) => Buffer.compare(a.key, b.key));
    let start = 0;
    if (options.cursor) {
      const after = Buffer.from(decodeCursor(options.cursor));
      // Binary search: the first name strictly after the cursor.
      let hi = sorted.length;
      while (start < hi) {
        const mid = (start + hi) >>> 1;
        if (Buffer.compare(sorted[mid]!.key, after) <= 0) start = mid + 1;
        else hi = mid;
      }
    }
    const names = sorted.map((e) => e.name);
    const pageNames = names.slice(start, start + limit);
    // Only symlinks need the confinement walk; plain entries of a confined directory are confined.
    const entries = await Promise.all(
      pageNames.map((name) =>
        kinds.get(name)
          ? this.statChild(joinPath(rel, name), bound)
          : fs
              .stat(nodePath.join(abs, name), { bigint: true })
              .then((st) => entryOf(joinPath(rel, name), st))
              .catch(() => null),
      ),
    );
    const more = start + limit < names.length;
    return {
      entries: entries.filter((e): e is StorageEntry => e !== null),
      nextCursor: more && pageNames.length > 0 ? encodeCursor(pageNames[pageNames.length - 1]!) : null,
    };
  }

  /**
   * A listing hides what it cannot serve: dangling links, links leaving the
   * boundary, names we refuse, entries deleted meanwhile. Links it shows are
   * marked, so recursive walks do not descend into them (a link to an
   * ancestor would never end).
   */
  private async statChild(rel: string, bound: string): Promise<StorageEntry | null> {
    try {
      const entry = await this.statWithin(rel, bound);
      return entry && { ...entry, isLink: true };
    } catch (e) {
      if (isAppError(e) && (e.status === 400 || e.status === 403)) return null;
      throw e;
    }
  }

  async read(path: string, range?: ReadRange): Promise<ReadResult> {
    const { rel, abs } = await this.locate(path, true);
    let handle: fs.FileHandle;
    try {
      handle = await fs.open(abs, "r");
    } catch (e) {
      throw mapFsError(e, rel);
    }
    try {
      // Stat the open handle, not the path, so size and ETag describe exactly the bytes we stream.
      const st = await handle.stat({ bigint: true });
      if (st.isDirectory()) throw isADirectory(rel);
      const size = Number(st.size);
      const served = resolveRange(size, range);
      let body: Readable;
      if (served.contentLength === 0) {
        await handle.close();
        body = emptyStream();
      } else {
        body = new FileBody(handle, served.start, served.end);
      }
      return {
        body,
        size,
        contentLength: served.contentLength,
        range: served.partial ? { start: served.start, end: served.end } : null,
        etag: etagOf(st),
        modified: st.mtime,
        contentType: mimeTypeFor(rel),
      };
    } catch (e) {
      await handle.close().catch(() => {});
      throw mapFsError(e, rel);
    }
  }

  async write(path: string, body: Readable, options: WriteOptions = {}): Promise<WriteResult> {
    const { rel, abs } = await this.locate(path, false);
    if (rel === "") throw isADirectory(rel);
    const { temp } = await this.dirs();
    const tmpFile = nodePath.join(temp, taggedTempName(WRITE_TEMP));
    try {
      const measure = new MeasuringStream({ limit: options.size, exact: true });
      // flush = fsync before close, ahead of the rename: otherwise a crash can leave the final
      // name pointing at a file whose blocks never reached the disk.
      // Opened before streaming so a failure can never race a lazy open and recreate the file after cleanup.
      // A 1 MiB buffer lets chunks that arrive during a write go out together (writev), not one 64 KiB write each.
      const file = createWriteStream("", {
        fd: await fs.open(tmpFile, "wx", 0o644),
        flush: true,
        highWaterMark: 1024 * 1024,
      });
      await pipeline(body, measure, file, { signal: options.signal });
      return await this.placeInto(rel, abs, tmpFile);
    } catch (e) {
      await fs.rm(tmpFile, { force: true });
      if (options.signal?.aborted) throw uploadAborted();
      throw mapFsError(e, rel);
    }
  }

  /** Moves a finished, synced temp file to its final name, durably (the rename too). */
  private async placeInto(rel: string, abs: string, tmpFile: string): Promise<WriteResult> {
    await this.ensureParent(rel, abs);
    await fs.rename(tmpFile, abs);
    await syncDir(nodePath.dirname(abs));
    const st = await fs.stat(abs, { bigint: true });
    return { size: Number(st.size), etag: etagOf(st) };
  }

  /** Multipart completion: the assembled temp file (already synced) becomes `path`. */
  async place(path: string, tmpFile: string): Promise<WriteResult> {
    const { rel, abs } = await this.locate(path, false);
    if (rel === "") throw isADirectory(rel);
    try {
      return await this.placeInto(rel, abs, tmpFile);
    } catch (e) {
      throw mapFsError(e, rel);
    }
  }

  private async ensureParent(rel: string, abs: string): Promise<void> {
    try {
      await fs.mkdir(nodePath.dirname(abs), { recursive: true });
    } catch (e) {
      const code = errnoOf(e);
      if (code === "EEXIST" || code === "ENOTDIR") throw notADirectory(rel);
      throw e;
    }
  }

  async mkdir(dir: string): Promise<void> {
    const { rel, abs } = await this.locate(dir, true);
    try {
      await fs.mkdir(abs, { recursive: true });
    } catch (e) {
      const code = errnoOf(e);
      if (code === "EEXIST" || code === "ENOTDIR") throw notADirectory(rel);
      throw mapFsError(e, rel);
    }
  }

  async remove(path: string, options: { recursive?: boolean } = {}): Promise<void> {
    const { rel, abs } = await this.locate(path, false);
    if (rel === "") throw invalidPath("The root cannot be removed");
    try {
      const st = await fs.lstat(abs);
      if (!st.isDirectory()) await fs.unlink(abs);
      else if (options.recursive) await fs.rm(abs, { recursive: true });
      else await fs.rmdir(abs);
    } catch (e) {
      throw mapFsError(e, rel);
    }
  }

  /** Shared checks for rename/copy; returns whether the source is a directory. */
  private async prepareMove(
    from: { rel: string; abs: string },
    to: { rel: string; abs: string },
    options: MoveOptions,
  ): Promise<boolean> {
    if (from.rel === "" || to.rel === "") throw invalidPath("The root cannot be moved or replaced");
    if (isSameOrInside(to.rel, from.rel)) throw invalidPath("Cannot move or copy a path into itself");
    const source = await fs.stat(from.abs).catch((e) => {
      throw mapFsError(e, from.rel);
    });
    const target = await fs.lstat(to.abs).catch((e) => {
      if (errnoOf(e) === "ENOENT") return null;
      throw mapFsError(e, to.rel);
    });
    if (target && (!options.overwrite || target.isDirectory() || source.isDirectory())) {
      throw targetExists(to.rel);
    }
    return source.isDirectory();
  }

  async rename(from: string, to: string, options: MoveOptions = {}): Promise<void> {
    const source = await this.locate(from, false);
    const target = await this.locate(to, false);
    await this.prepareMove(source, target, options);
    try {
      await this.ensureParent(target.rel, target.abs);
      await fs.rename(source.abs, target.abs);
    } catch (e) {
      throw mapFsError(e, target.rel);
    }
  }

  async copy(from: string, to: string, options: MoveOptions = {}): Promise<void> {
    const source = await this.locate(from, true);
    const target = await this.locate(to, false);
    const isDir = await this.prepareMove(source, target, options);
    if (isDir) await this.copyTree(source.rel, target.rel);
    else await this.copyFile(source.rel, target.rel);
  }

  private async copyFile(from: string, to: string): Promise<void> {
    const { body, size } = await this.read(from);
    try {
      await this.write(to, body, { size });
    } finally {
      body.destroy();
    }
  }

  private async copyTree(from: string, to: string): Promise<void> {
    await this.mkdir(to);
    let cursor: string | null = null;
    do {
      const page: ListPage = await this.list(from, { cursor });
      for (const entry of page.entries) {
        const target = joinPath(to, entry.name);
        if (entry.isDirectory && entry.isLink) await this.mkdir(target);
        else if (entry.isDirectory) await this.copyTree(entry.path, target);
        else await this.copyFile(entry.path, target);
      }
      cursor = page.nextCursor;
    } while (cursor);
  }

  /** What interrupted writes left in the temp dir (see sweepTempDir); never creates the root. */
  sweepAbandoned(ages: AbandonedAges, now = new Date()): Promise<AbandonedCounts> {
    return sweepTempDir(nodePath.join(this.configuredRoot, LOCAL_TEMP_DIR), ages, now);
  }
}

/** A directory entry name that the path rules accept as one segment (others are unreachable, so hidden). */
function isPlainName(name: string): boolean {
  try {
    return normalizePath(name) === name && !name.includes("/");
  } catch {
    return false;
  }
}
