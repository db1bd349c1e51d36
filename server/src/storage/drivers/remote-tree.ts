/**
 * The storage-driver semantics shared by backends that are a remote directory
 * tree (WebDAV, SFTP, FTP). A protocol adapter (RemoteFs) supplies a handful of
 * primitive operations on absolute server paths; this class turns them into the
 * StorageDriver contract: byte-ordered paged listings, ranges, two-phase writes
 * through a temp name, recursive copy/remove, the same errors as LOCAL and S3.
 */
import { randomUUID } from "node:crypto";
import { createReadStream } from "node:fs";
import { mkdir, readdir, stat } from "node:fs/promises";
import type { LookupFunction } from "node:net";
import { posix } from "node:path";
import { PassThrough, Readable } from "node:stream";
import { isAppError } from "../../errors";
import {
  directoryNotEmpty,
  invalidPath,
  isADirectory,
  notADirectory,
  storageFailure,
  storageNotFound,
  storageUnreachable,
  targetExists,
  uploadAborted,
} from "../errors";
import { mimeTypeFor } from "../mime";
import { baseName, isSameOrInside, joinPath, normalizePath, parentPath } from "../path-safety";
import { LOCAL_TEMP_DIR } from "../reserved-names";
import { MeasuringStream } from "../streams";
import type {
  AbandonedAges,
  AbandonedCounts,
  ListOptions,
  ListPage,
  MoveOptions,
  MultipartPart,
  ReadRange,
  ReadResult,
  StorageCapabilities,
  StorageDriver,
  StorageEntry,
  WriteOptions,
  WriteResult,
} from "../types";
import { sweepTempDir } from "./local-confine";
import { compareNames, decodeCursor, encodeCursor } from "./local-fs";
import { LocalMultipart } from "./local-multipart";
import { streamedCapabilities } from "./multipart-driver";
import { resolveRange } from "./range";

export type RemoteKind = "WEBDAV" | "SFTP" | "FTP";

/** Settings every remote-tree driver takes. */
export interface RemoteSettings {
  username: string;
  password: string;
  /** Folder on the server that is the storage root ("" = the server's top folder); created on first use. */
  folder?: string;
  /** The endpoint policy's lookup (STORAGE_ENDPOINT_ALLOW). */
  lookup?: LookupFunction;
  /** Most connections (sockets, sessions) open at once. */
  maxConnections?: number;
  /** Connect and per-request timeout in ms. */
  timeoutMs?: number;
  /** Local directory for multipart parts; without it the driver has no multipart uploads. */
  partsDir?: string;
}

/** The absolute root directory on the server for a configured folder. */
export function remoteRoot(folder: string | undefined): string {
  return `/${(folder ?? "").replace(/^\/+|\/+$/g, "")}`;
}

/** Multipart uploads through parts on ClipShare's disk, when a parts directory is configured. */
export const localParts = (settings: RemoteSettings): LocalParts | undefined =>
  settings.partsDir ? { dir: settings.partsDir } : undefined;

export interface RemoteStat {
  isDirectory: boolean;
  size: number;
  modified: Date | null;
  /** The server's ETag where the protocol has one (WebDAV); otherwise derived from size and time. */
  etag?: string | null;
}

/**
 * What a protocol must provide. Paths are absolute server paths ("/a/b").
 * Every method translates its own failures into storage errors (not found,
 * unreachable, backend failure) and keeps its connections healthy.
 */
export interface RemoteFs {
  /** null when nothing exists there (including "a parent is a file"). */
  stat(path: string): Promise<RemoteStat | null>;
  /** Entries of a directory; 404 `not_found` when it does not exist. */
  list(dir: string): Promise<{ name: string; stat: RemoteStat }[]>;
  /** Bytes `start..end` (inclusive) of a file of known size; `end` is never past the last byte. */
  read(path: string, start: number, end: number): Promise<Readable>;
  /** Stores the whole body at `path` (a fresh temp name), replacing nothing. */
  write(path: string, body: Readable, size: number | undefined, signal: AbortSignal): Promise<void>;
  /** One level; the parent exists. */
  mkdir(path: string): Promise<void>;
  removeFile(path: string): Promise<void>;
  /** An empty directory, or with `recursive` a whole tree where the protocol deletes trees itself. */
  removeDir(path: string): Promise<void>;
  /** Moves a file or directory; the target's parent exists; an existing target file is replaced. */
  rename(from: string, to: string): Promise<void>;
  /** Present when the server copies (WebDAV COPY): a file or a whole tree, target absent. */
  copy?(from: string, to: string): Promise<void>;
  /** Present when the server deletes whole trees in one call (WebDAV DELETE). */
  removeTree?(path: string): Promise<void>;
  close(): Promise<void>;
  /** What identifies the server beyond its address (SFTP: its host-key fingerprint), once connected. */
  serverIdentity?(): string | null;
}

const DEFAULT_LIMIT = 1000;

/** An ETag for protocols without one: changes when size or modification time does. */
export function derivedEtag(size: number, modified: Date | null): string {
  return `${size.toString(16)}-${(modified?.getTime() ?? 0).toString(16)}`;
}

/**
 * Multipart uploads for protocols without them: parts are kept on ClipShare's
 * own disk (as LOCAL keeps them) and completing streams them, in order,
 * through the ordinary two-phase write. Any upload size works on any backend.
 */
export interface LocalParts {
  /** A local directory of this process for the parts (DATA_DIR/tmp/parts/<config>). */
  dir: string;
}

export class RemoteTreeDriver implements StorageDriver {
  readonly capabilities: StorageCapabilities;
  private tempReady: Promise<void> | null = null;
  private readonly parts: LocalMultipart | null;

  constructor(
    readonly kind: RemoteKind,
    private readonly fs: RemoteFs,
    /** Absolute directory on the server that is this storage's root ("/" or "/base/folder"). */
    private readonly root: string,
    private readonly localParts?: LocalParts,
  ) {
    this.capabilities = streamedCapabilities(localParts !== undefined, fs.copy !== undefined);
    this.parts = localParts
      ? new LocalMultipart({
          tempDir: async () => {
            await mkdir(localParts.dir, { recursive: true });
            return localParts.dir;
          },
          normalize: (path) => this.normalize(path),
          write: (path, body, options) => this.write(path, body, options),
          // The assembled file is on ClipShare's disk: it goes to the server as one streamed write.
          place: async (path, file) =>
            this.write(path, createReadStream(file), { size: (await stat(file)).size }),
        })
      : null;
    if (!this.parts) {
      this.initMultipart = undefined;
      this.uploadPart = undefined;
      this.completeMultipart = undefined;
      this.abortMultipart = undefined;
      this.listParts = undefined;
    }
  }

  initMultipart? = (path: string, options: { contentType?: string } = {}) => this.parts!.init(path, options);
  uploadPart? = (path: string, uploadId: string, partNumber: number, body: Readable, size?: number) =>
    this.parts!.uploadPart(path, uploadId, partNumber, body, size);
  completeMultipart? = (path: string, uploadId: string, parts: MultipartPart[]) =>
    this.parts!.complete(path, uploadId, parts);
  abortMultipart? = (path: string, uploadId: string) => this.parts!.abort(path, uploadId);
  listParts? = (path: string, uploadId: string) => this.parts!.listParts(path, uploadId);

  /**
   * Removes leftovers: local parts of abandoned uploads, and temp files on the
   * server that have not changed for `idleWriteMs` (a live write keeps growing).
   */
  async sweepAbandoned(ages: AbandonedAges, now = new Date()): Promise<AbandonedCounts> {
    const counts = this.localParts
      ? await sweepTempDir(this.localParts.dir, ages, now)
      : { tempFiles: 0, multipartUploads: 0 };
    const temp = this.abs(LOCAL_TEMP_DIR);
    if (!(await this.fs.stat(temp))) return counts;
    for (const e of await this.fs.list(temp)) {
      const age = now.getTime() - (e.stat.modified?.getTime() ?? now.getTime());
      if (e.stat.isDirectory || age < ages.idleWriteMs) continue;
      await this.fs.removeFile(posix.join(temp, e.name)).catch(() => undefined);
      counts.tempFiles++;
    }
    return counts;
  }

  /** Closes pooled connections (tests, config changes). */
  serverIdentity(): string | null {
    return this.fs.serverIdentity?.() ?? null;
  }

  close(): Promise<void> {
    return this.fs.close();
  }

  private normalize(path: string): string {
    const rel = normalizePath(path);
    if (rel.split("/", 1)[0] === LOCAL_TEMP_DIR) throw invalidPath("Path is reserved", { path });
    return rel;
  }

  private abs(rel: string): string {
    return rel === "" ? this.root : posix.join(this.root, rel);
  }

  private entry(rel: string, st: RemoteStat): StorageEntry {
    const name = baseName(rel);
    return {
      path: rel,
      name,
      isDirectory: st.isDirectory,
      size: st.isDirectory ? 0 : st.size,
      modified: st.modified,
      etag: st.isDirectory ? null : (st.etag ?? derivedEtag(st.size, st.modified)),
      contentType: st.isDirectory ? null : mimeTypeFor(name),
    };
  }

  async stat(path: string): Promise<StorageEntry | null> {
    const rel = this.normalize(path);
    if (rel === "") return { ...this.entry("", { isDirectory: true, size: 0, modified: null }) };
    const st = await this.fs.stat(this.abs(rel));
    return st ? this.entry(rel, st) : null;
  }

  async exists(path: string): Promise<boolean> {
    return (await this.stat(path)) !== null;
  }

  private async requireDir(rel: string): Promise<void> {
    const st = await this.stat(rel);
    if (!st) throw storageNotFound(rel);
    if (!st.isDirectory) throw notADirectory(rel);
  }

  async list(dir: string, options: ListOptions = {}): Promise<ListPage> {
    const rel = this.normalize(dir);
    if (rel === "") await this.tempDir();
    else await this.requireDir(rel);
    const limit = Math.min(Math.max(Math.trunc(options.limit ?? DEFAULT_LIMIT), 1), DEFAULT_LIMIT);
    const after = options.cursor ? decodeCursor(options.cursor) : null;
    // Remote listings come whole and unordered: sort by UTF-8 bytes and continue after the cursor's name.
    const all = (await this.fs.list(this.abs(rel)))
      .filter((e) => !(rel === "" && e.name === LOCAL_TEMP_DIR) && e.name !== "." && e.name !== "..")
      .sort((a, b) => compareNames(a.name, b.name))
      .filter((e) => after === null || compareNames(e.name, after) > 0);
    const page = all.slice(0, limit);
    const more = all.length > limit;
    return {
      entries: page.map((e) => this.entry(joinPath(rel, e.name), e.stat)),
      nextCursor: more ? encodeCursor(page[page.length - 1]!.name) : null,
    };
  }

  async read(path: string, range?: ReadRange): Promise<ReadResult> {
    const rel = this.normalize(path);
    const st = await this.stat(rel);
    if (!st) throw storageNotFound(rel);
    if (st.isDirectory) throw isADirectory(rel);
    const r = resolveRange(st.size, range);
    const body =
      r.contentLength === 0 ? Readable.from([]) : await this.fs.read(this.abs(rel), r.start, r.end);
    return {
      body,
      size: st.size,
      contentLength: r.contentLength,
      range: r.partial ? { start: r.start, end: r.end } : null,
      etag: st.etag,
      modified: st.modified,
      contentType: st.contentType ?? mimeTypeFor(st.name),
    };
  }

  /** The configured folder on the server, created (with its parents) on first use, as LOCAL creates its root. */
  private async ensureRoot(): Promise<void> {
    let dir = "/";
    for (const segment of this.root.split("/").filter(Boolean)) {
      dir = posix.join(dir, segment);
      const st = await this.fs.stat(dir);
      if (st && !st.isDirectory) throw notADirectory(dir);
      if (!st) await this.fs.mkdir(dir);
    }
  }

  /** The hidden directory for writes in flight (and the root above it), created once per driver. */
  private tempDir(): Promise<void> {
    this.tempReady ??= (async () => {
      await this.ensureRoot();
      const temp = this.abs(LOCAL_TEMP_DIR);
      if (!(await this.fs.stat(temp))) await this.mkdirAbs(LOCAL_TEMP_DIR);
    })();
    this.tempReady.catch(() => {
      this.tempReady = null;
    });
    return this.tempReady;
  }

  /**
   * Two-phase: the bytes go to a temp name under the hidden directory, and only
   * a complete body is renamed into place (after creating missing parents), so
   * an interrupted transfer never leaves a half file where readers look.
   */
  async write(path: string, body: Readable, options: WriteOptions = {}): Promise<WriteResult> {
    const rel = this.normalize(path);
    if (rel === "") throw invalidPath("Cannot write to the root");
    const existing = await this.stat(rel);
    if (existing?.isDirectory) throw isADirectory(rel);
    await this.tempDir();
    const temp = this.abs(joinPath(LOCAL_TEMP_DIR, `${randomUUID()}.part`));
    const measure = new MeasuringStream(
      options.size !== undefined ? { limit: options.size, exact: true } : {},
    );
    const ctrl = new AbortController();
    const onAbort = () => {
      const e = uploadAborted();
      body.destroy(e);
      ctrl.abort(e);
    };
    if (options.signal?.aborted) onAbort();
    options.signal?.addEventListener("abort", onAbort, { once: true });
    // body → measure → source, wired with pipe() so that a failure on the server's side of
    // `source` never travels back into the caller's body: the caller must see the storage error.
    const source = new PassThrough();
    let sourceError: unknown = null;
    const failSource = (e: unknown) => {
      // A wrong size or a broken body is the caller's fault and the error to report.
      sourceError ??= e;
      ctrl.abort(e);
      source.destroy(e as Error);
    };
    body.once("error", failSource);
    measure.once("error", failSource);
    body.pipe(measure).pipe(source);
    try {
      await this.fs.write(temp, source, options.size, ctrl.signal);
      if (sourceError) throw sourceError;
      await this.mkdirAbs(parentPath(rel));
      await this.fs.rename(temp, this.abs(rel));
    } catch (e) {
      const early = sourceError;
      body.unpipe(measure);
      source.destroy();
      await this.discard(temp);
      throw early ?? (ctrl.signal.aborted && !isAppError(e) ? ctrl.signal.reason : e);
    } finally {
      options.signal?.removeEventListener("abort", onAbort);
    }
    const st = await this.stat(rel);
    return { size: measure.bytes, etag: st?.etag ?? null };
  }

  /**
   * Removes a failed write's temp file. A server may still be storing the
   * cut-off request when we ask (rclone's WebDAV does), so look again until it is gone.
   */
  private async discard(temp: string): Promise<void> {
    for (let attempt = 0; attempt < 20; attempt++) {
      await this.fs.removeFile(temp).catch(() => undefined);
      await new Promise((r) => setTimeout(r, attempt === 0 ? 0 : 50));
      if (!(await this.fs.stat(temp).catch(() => null))) return;
    }
  }

  /** Creates `rel` and its missing parents; 409 when a file is in the way. */
  private async mkdirAbs(rel: string): Promise<void> {
    if (rel === "") return;
    const st = await this.fs.stat(this.abs(rel));
    if (st) {
      if (!st.isDirectory) throw notADirectory(rel);
      return;
    }
    await this.mkdirAbs(parentPath(rel));
    try {
      await this.fs.mkdir(this.abs(rel));
    } catch (e) {
      // Another writer may have created it meanwhile.
      const again = await this.fs.stat(this.abs(rel));
      if (!again?.isDirectory) throw e;
    }
  }

  async mkdir(dir: string): Promise<void> {
    const rel = this.normalize(dir);
    await this.tempDir();
    await this.mkdirAbs(rel);
  }

  async remove(path: string, options: { recursive?: boolean } = {}): Promise<void> {
    const rel = this.normalize(path);
    if (rel === "") throw invalidPath("The root cannot be removed");
    const st = await this.stat(rel);
    if (!st) throw storageNotFound(rel);
    if (!st.isDirectory) return this.fs.removeFile(this.abs(rel));
    const children = await this.fs.list(this.abs(rel));
    if (children.length > 0 && !options.recursive) throw directoryNotEmpty(rel);
    await this.removeTree(rel);
  }

  private async removeTree(rel: string): Promise<void> {
    if (this.fs.removeTree) return this.fs.removeTree(this.abs(rel));
    for (const child of await this.fs.list(this.abs(rel))) {
      const childRel = joinPath(rel, child.name);
      if (child.stat.isDirectory) await this.removeTree(childRel);
      else await this.fs.removeFile(this.abs(childRel));
    }
    await this.fs.removeDir(this.abs(rel));
  }

  /** Checks shared by rename and copy; returns the source entry. */
  private async prepareTarget(from: string, to: string, options: MoveOptions): Promise<StorageEntry> {
    if (from === "" || to === "") throw invalidPath("The root cannot be moved or replaced");
    if (isSameOrInside(to, from)) throw invalidPath("Cannot move or copy a path into itself");
    const src = await this.stat(from);
    if (!src) throw storageNotFound(from);
    const dst = await this.stat(to);
    if (dst) {
      if (dst.isDirectory || src.isDirectory || !options.overwrite) throw targetExists(to);
      await this.fs.removeFile(this.abs(to));
    }
    await this.mkdirAbs(parentPath(to));
    return src;
  }

  async rename(from: string, to: string, options: MoveOptions = {}): Promise<void> {
    const [src, dst] = [this.normalize(from), this.normalize(to)];
    await this.prepareTarget(src, dst, options);
    await this.fs.rename(this.abs(src), this.abs(dst));
  }

  async copy(from: string, to: string, options: MoveOptions = {}): Promise<void> {
    const [src, dst] = [this.normalize(from), this.normalize(to)];
    const entry = await this.prepareTarget(src, dst, options);
    if (this.fs.copy) return this.fs.copy(this.abs(src), this.abs(dst));
    await this.copyByStreaming(entry, dst);
  }

  /** The fallback where the server cannot copy: every file's bytes pass through this process once. */
  private async copyByStreaming(src: StorageEntry, dst: string): Promise<void> {
    if (!src.isDirectory) {
      const r = await this.read(src.path);
      await this.write(dst, r.body, { size: r.size });
      return;
    }
    await this.mkdirAbs(dst);
    for (const child of await this.fs.list(this.abs(src.path))) {
      const childRel = joinPath(src.path, child.name);
      await this.copyByStreaming(this.entry(childRel, child.stat), joinPath(dst, child.name));
    }
  }

  /** Temp files left by interrupted writes and parts of unfinished uploads (the contract tests' "litter"). */
  async leftovers(): Promise<string[]> {
    const temp = this.abs(LOCAL_TEMP_DIR);
    const remote = (await this.fs.stat(temp)) ? (await this.fs.list(temp)).map((e) => e.name) : [];
    const local = this.localParts ? await readdir(this.localParts.dir).catch(() => []) : [];
    return [...remote, ...local];
  }
}

/** Socket-level failures: the server is down, unreachable or dropped us (the next call reconnects). */
const UNREACHABLE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "ENOTFOUND",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EPIPE",
  "EAI_AGAIN",
  "ECONNABORTED",
  "ERR_STREAM_PREMATURE_CLOSE",
]);

export function isUnreachable(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === "string" && UNREACHABLE_CODES.has(code);
}

/**
 * A protocol failure as a storage error: ClipShare's own errors pass through,
 * socket failures are 503 storage_unreachable, `missing` ones 404, the rest 502
 * storage_error with the server's words kept for the log and the config test.
 */
export function remoteError(e: unknown, path: string, protocol: string, missing: boolean): Error {
  if (isAppError(e)) return e;
  const err = e as { message?: string; code?: unknown; status?: number };
  const failure = {
    backend: `${protocol}: ${err.message ?? String(e)}`,
    code: err.code === undefined ? undefined : String(err.code),
    status: typeof err.status === "number" ? err.status : undefined,
  };
  if (missing) return storageNotFound(path);
  if (isUnreachable(e)) return storageUnreachable(failure);
  return storageFailure(`The ${protocol} server failed the request`, failure);
}

/** The address to connect to for `host`, through the endpoint policy's lookup when there is one. */
export function resolveHost(host: string, lookup: LookupFunction | undefined): Promise<string> {
  if (!lookup) return Promise.resolve(host);
  return new Promise((resolve, reject) => {
    lookup(host, {}, (err, address) => {
      if (err) reject(err);
      else resolve(typeof address === "string" ? address : (address[0]?.address ?? host));
    });
  });
}

/** Fails a promise that takes longer than `ms` with ETIMEDOUT (a server that accepts but never answers). */
export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(Object.assign(new Error(`${what} timed out after ${ms} ms`), { code: "ETIMEDOUT" })),
      ms,
    );
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
