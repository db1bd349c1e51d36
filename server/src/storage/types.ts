import type { Readable } from "node:stream";
import type { Disposition } from "./content-disposition";

/**
 * What a driver can do beyond the operations every driver has. Callers branch
 * on these flags (e.g. presigned direct upload vs. streaming through the
 * server) instead of on the driver type.
 */
export interface StorageCapabilities {
  /** `presignRead` exists: clients can GET bytes straight from the backend. */
  presignRead: boolean;
  /** `presignWrite` exists, and with `multipart` also `presignPart`: clients can PUT straight to the backend. */
  presignWrite: boolean;
  /**
   * `initMultipart`/`uploadPart`/`completeMultipart`/`abortMultipart` exist.
   * LOCAL emulates them (parts go through the server); S3 uses native uploads.
   */
  multipart: boolean;
  /** `copy` and `rename` happen inside the backend without streaming bytes through this process. */
  serverSideCopy: boolean;
  /** `publicUrl` returns a URL (S3 with a custom host). */
  publicUrl: boolean;
  /**
   * `read` with a range fetches only those bytes from the backend (HTTP Range,
   * SFTP offsets, FTP REST); without it a range is cut from a whole-object read.
   */
  rangeRead: boolean;
}

/**
 * One file or directory. `path` is the driver-relative virtual path (no leading
 * or trailing "/"). `etag` is unquoted; the HTTP layer adds quotes. Directories
 * have size 0, etag null and contentType null (and on S3 `modified` null).
 * In listings `contentType` is guessed from the name, since S3 listings do not
 * carry it; `stat` and `read` report the stored type.
 */
export interface StorageEntry {
  path: string;
  name: string;
  isDirectory: boolean;
  size: number;
  modified: Date | null;
  etag: string | null;
  contentType: string | null;
  /**
   * Set in listings for a symbolic link (LOCAL). Recursive operations (walks,
   * search, ZIP, tree copies) show a linked directory but do not descend into
   * it: a link to one of its own ancestors would never end.
   */
  isLink?: boolean;
}

export interface ListOptions {
  /** Page size, 1..1000; default 1000. */
  limit?: number;
  /** Opaque cursor from the previous page's `nextCursor`. */
  cursor?: string | null;
}

/**
 * One page of a directory listing.
 *
 * Ordering: entries come in ascending byte order of their UTF-8 names, files
 * and directories interleaved (S3 ListObjectsV2 order; LOCAL sorts the same
 * way). "Directories first" is a presentation concern above the driver.
 *
 * A page may hold fewer than `limit` entries, even none, while `nextCursor` is
 * not null (S3 counts directory markers it hides); keep fetching until
 * `nextCursor` is null. Cursors continue after the last name returned, so
 * entries added or removed between pages never cause duplicates.
 */
export interface ListPage {
  entries: StorageEntry[];
  nextCursor: string | null;
}

/** Byte range like HTTP: `end` is inclusive. Omitted `start` is 0, omitted `end` is the last byte. */
export interface ReadRange {
  start?: number;
  end?: number;
  /** The last N bytes (HTTP `bytes=-N`); excludes start/end. */
  suffix?: number;
}

export interface ReadResult {
  /** The bytes. Destroy it if you stop reading early, or the file handle / socket stays open. */
  body: Readable;
  /** Size of the whole object. */
  size: number;
  /** Bytes `body` will deliver. */
  contentLength: number;
  /** Inclusive range actually served, or null when the whole object is served. */
  range: { start: number; end: number } | null;
  etag: string | null;
  modified: Date | null;
  contentType: string;
}

export interface WriteOptions {
  /** Known length. S3 then uses a single PutObject; a body of any other length fails with `size_mismatch`. */
  size?: number;
  /** Stored on S3; LOCAL always derives it from the extension. Default: guessed from the name. */
  contentType?: string;
  /** Aborting removes everything written so far and rejects the write. */
  signal?: AbortSignal;
}

export interface WriteResult {
  size: number;
  etag: string | null;
}

export interface MoveOptions {
  /** Replace an existing file at the target; otherwise 409 `target_exists`. Directories are never merged. */
  overwrite?: boolean;
}

export interface PresignReadOptions {
  /** Seconds; default is the driver's configured expiry. */
  expiresIn?: number;
  /** Name for Content-Disposition (defaults to the path's last segment when a disposition is given). */
  filename?: string;
  disposition?: Disposition;
  /** Overrides the stored Content-Type in the response. */
  contentType?: string;
}

export interface PresignWriteOptions {
  expiresIn?: number;
  contentType?: string;
}

/** A URL a client calls directly, with the headers it must send (signed ones and provider quirks). */
export interface MultipartInitOptions {
  contentType?: string | undefined;
  /**
   * The size of every part but the last, when the client fixed it. LOCAL then
   * writes each part at its place in one file, so completing needs no copy.
   */
  partSize?: number | undefined;
}

export interface PresignedRequest {
  url: string;
  method: "GET" | "PUT";
  headers: Record<string, string>;
  expiresAt: Date;
}

export interface MultipartPart {
  partNumber: number;
  /** Quotes are tolerated and ignored. */
  etag: string;
}

/** How long leftovers must have been left alone before `sweepAbandoned` removes them. */
export interface AbandonedAges {
  /** A single streamed write whose temp file has not grown for this long (a live request never idles that long). */
  idleWriteMs: number;
  /** A multipart upload started this long ago (clients may pause between parts; sessions live 24 h). */
  multipartMs: number;
}

export interface AbandonedCounts {
  tempFiles: number;
  multipartUploads: number;
}

/** A part the storage already holds for an unfinished multipart upload. */
export interface StoredPart {
  partNumber: number;
  /** Unquoted. */
  etag: string;
  size: number;
}

/**
 * The one interface every backend implements. Paths are driver-relative
 * virtual paths (see path-safety.ts): `a/b.txt`, `""` for the root. Every
 * method validates its paths; none buffers a whole object in memory.
 *
 * Semantics shared by all drivers (the contract tests hold them to it):
 * - `write` is two-phase: the object becomes visible only when all bytes
 *   arrived; a failed or aborted write leaves nothing visible and no temp data.
 *   It replaces an existing file, creates missing parent directories, and fails
 *   with 409 `is_a_directory` if a directory is in the way (LOCAL; on S3 a key
 *   and a same-named prefix can coexist).
 * - `mkdir` is recursive and idempotent; 409 `not_a_directory` if a file is in the way.
 * - `remove` throws 404 when nothing exists; a non-empty directory needs `recursive`.
 * - `rename` and `copy` work on files and (recursively) on directories; they
 *   refuse an existing target unless `overwrite` is set for a file, and refuse
 *   moving a directory into itself. Neither is atomic for directories on S3.
 * - Missing things are 404 `not_found`; bad paths are 400 `invalid_path`.
 */
export interface StorageDriver {
  readonly kind: "LOCAL" | "S3" | "WEBDAV" | "SFTP" | "FTP";
  readonly capabilities: StorageCapabilities;

  stat(path: string): Promise<StorageEntry | null>;
  exists(path: string): Promise<boolean>;
  list(dir: string, options?: ListOptions): Promise<ListPage>;
  read(path: string, range?: ReadRange): Promise<ReadResult>;
  write(path: string, body: Readable, options?: WriteOptions): Promise<WriteResult>;
  mkdir(dir: string): Promise<void>;
  remove(path: string, options?: { recursive?: boolean }): Promise<void>;
  rename(from: string, to: string, options?: MoveOptions): Promise<void>;
  copy(from: string, to: string, options?: MoveOptions): Promise<void>;

  /** LOCAL only: the confined absolute path of a stored file, for handing its body to a front proxy. */
  localPath?(path: string): Promise<string>;

  /** Present when `capabilities.presignRead`. */
  presignRead?(path: string, options?: PresignReadOptions): Promise<PresignedRequest>;
  /**
   * Present when `capabilities.presignWrite`. Only the host is signed, as with
   * CloudPaste: the client should send the returned headers (Content-Type and
   * provider quirks such as B2's), and whatever Content-Type it sends is stored.
   */
  presignWrite?(path: string, options?: PresignWriteOptions): Promise<PresignedRequest>;

  /** Present when `capabilities.multipart`. Returns the upload id. */
  initMultipart?(path: string, options?: MultipartInitOptions): Promise<string>;
  /** Present when `capabilities.multipart && capabilities.presignWrite`. */
  presignPart?(
    path: string,
    uploadId: string,
    partNumber: number,
    expiresIn?: number,
  ): Promise<PresignedRequest>;
  /** Part numbers 1..10000; re-uploading a part number replaces it. Returns the part's unquoted ETag. */
  uploadPart?(
    path: string,
    uploadId: string,
    partNumber: number,
    body: Readable,
    size?: number,
  ): Promise<{ etag: string }>;
  /** Parts in any order; each must have been uploaded with the given ETag, else 400 `invalid_part`. */
  completeMultipart?(path: string, uploadId: string, parts: MultipartPart[]): Promise<WriteResult>;
  abortMultipart?(path: string, uploadId: string): Promise<void>;
  /**
   * Present when `capabilities.multipart`: the parts stored so far, by part
   * number (404 `upload_not_found` once the upload was completed or aborted).
   */
  listParts?(path: string, uploadId: string): Promise<StoredPart[]>;

  /** Present when `capabilities.publicUrl`: a stable unsigned URL under the configured custom host. */
  publicUrl?(path: string): string;

  /**
   * Removes what interrupted writes left behind (a killed process, a client
   * that never came back): LOCAL temp files and multipart parts, S3 incomplete
   * multipart uploads under the driver's prefix. Present where such leftovers
   * can exist; safe while other writes are in flight (see AbandonedAges).
   * Ages count back from `now` (default: the current time).
   */
  sweepAbandoned?(ages: AbandonedAges, now?: Date): Promise<AbandonedCounts>;

  /**
   * Present where links can lead from one directory into another (LOCAL): the
   * same storage, but every path must stay inside the real location of `dir`
   * (an API key's base path). Backends without links need no such view.
   */
  confinedTo?(dir: string): StorageDriver;

  /**
   * What identifies the server beyond its address, once a connection was
   * made (SFTP: the host key's "SHA256:…" fingerprint, for pinning); null before.
   */
  serverIdentity?(): string | null;
}
