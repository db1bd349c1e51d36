/**
 * What a mount shows of its storage: the folder `root` of it, minus the
 * areas ClipShare reserves there (the file-share area of this storage, and of
 * any other LOCAL storage whose share area lies inside this one's folder).
 * Every explorer route (API, WebDAV, ZIP, search, links, thumbnails, tasks)
 * reaches storage only through this view, so a hidden area is unreachable
 * from all of them at once: it is absent from listings, reads as not found,
 * and refuses writes, copies and moves in either direction.
 */
import { SHARE_AREA } from "@clipshare/shared";
import { forbidden } from "../../errors";
import { storageNotFound } from "../../storage/errors";
import { isSameOrInside, joinPath, normalizePath } from "../../storage/path-safety";
import type {
  ListOptions,
  ListPage,
  MoveOptions,
  MultipartPart,
  PresignReadOptions,
  PresignWriteOptions,
  ReadRange,
  StorageDriver,
  StorageEntry,
} from "../../storage/types";

export const reservedPath = (path: string) =>
  forbidden(`This folder is or holds one reserved for file shares: ${path || "/"}`, "path_reserved");

export class MountView implements StorageDriver {
  readonly kind: StorageDriver["kind"];
  readonly capabilities: StorageDriver["capabilities"];

  /**
   * @param storage the whole storage (S3) or, for LOCAL with a root, the storage confined to the root
   * @param root storage-relative folder shown as the mount's top ("" = the whole storage)
   * @param hidden storage-relative folders this view never shows (always includes SHARE_AREA)
   */
  constructor(
    private readonly storage: StorageDriver,
    readonly root: string,
    private readonly hidden: readonly string[] = [SHARE_AREA],
  ) {
    this.kind = storage.kind;
    this.capabilities = storage.capabilities;
    // Optional methods exist on the view exactly when the storage has them.
    if (!storage.localPath) this.localPath = undefined;
    if (!storage.presignRead) this.presignRead = undefined;
    if (!storage.presignWrite) this.presignWrite = undefined;
    if (!storage.initMultipart) this.initMultipart = undefined;
    if (!storage.presignPart) this.presignPart = undefined;
    if (!storage.uploadPart) this.uploadPart = undefined;
    if (!storage.completeMultipart) this.completeMultipart = undefined;
    if (!storage.abortMultipart) this.abortMultipart = undefined;
    if (!storage.listParts) this.listParts = undefined;
    if (!storage.publicUrl) this.publicUrl = undefined;
    if (!storage.confinedTo) this.confinedTo = undefined;
    this.sweepAbandoned = undefined;
  }

  /** The storage-relative path of a view path; throws when it names a hidden area. */
  storagePath(path: string): string {
    const full = joinPath(this.root, normalizePath(path));
    if (this.isHidden(full)) throw storageNotFound(path);
    return full;
  }

  private isHidden(full: string): boolean {
    return this.hidden.some((area) => isSameOrInside(full, area));
  }

  /**
   * A path whose whole tree is acted on (removed, moved, copied): nothing in a
   * hidden area, and no folder holding one, since the operation would carry
   * the area along.
   */
  private wholeTree(path: string): string {
    const full = this.storagePath(path);
    if (this.hidden.some((area) => isSameOrInside(area, full))) throw reservedPath(path);
    return full;
  }

  /** Reads find nothing in a hidden area; writes are told why they are refused. */
  private writable(path: string): string {
    const full = joinPath(this.root, normalizePath(path));
    if (this.isHidden(full)) throw reservedPath(path);
    return full;
  }

  private viewPath(full: string): string {
    return this.root === "" ? full : full.slice(this.root.length + 1);
  }

  private toView(entry: StorageEntry): StorageEntry {
    return { ...entry, path: this.viewPath(entry.path) };
  }

  async stat(path: string): Promise<StorageEntry | null> {
    const full = joinPath(this.root, normalizePath(path));
    if (this.isHidden(full)) return null;
    const entry = await this.storage.stat(full);
    return entry && this.toView(entry);
  }

  async exists(path: string): Promise<boolean> {
    return (await this.stat(path)) !== null;
  }

  async list(dir: string, options?: ListOptions): Promise<ListPage> {
    const page = await this.storage.list(this.storagePath(dir), options);
    return {
      entries: page.entries.filter((e) => !this.isHidden(e.path)).map((e) => this.toView(e)),
      nextCursor: page.nextCursor,
    };
  }

  read(path: string, range?: ReadRange) {
    return this.storage.read(this.storagePath(path), range);
  }

  write(
    path: string,
    body: Parameters<StorageDriver["write"]>[1],
    options?: Parameters<StorageDriver["write"]>[2],
  ) {
    return this.storage.write(this.writable(path), body, options);
  }

  mkdir(dir: string) {
    return this.storage.mkdir(this.writable(dir));
  }

  remove(path: string, options?: { recursive?: boolean }) {
    return this.storage.remove(this.wholeTree(path), options);
  }

  rename(from: string, to: string, options?: MoveOptions) {
    return this.storage.rename(this.wholeTree(from), this.writable(to), options);
  }

  copy(from: string, to: string, options?: MoveOptions) {
    return this.storage.copy(this.wholeTree(from), this.writable(to), options);
  }

  localPath? = (path: string) => this.storage.localPath!(this.storagePath(path));

  presignRead? = (path: string, options?: PresignReadOptions) =>
    this.storage.presignRead!(this.storagePath(path), options);

  presignWrite? = (path: string, options?: PresignWriteOptions) =>
    this.storage.presignWrite!(this.writable(path), options);

  initMultipart? = (path: string, options?: { contentType?: string }) =>
    this.storage.initMultipart!(this.writable(path), options);

  presignPart? = (path: string, uploadId: string, partNumber: number, expiresIn?: number) =>
    this.storage.presignPart!(this.writable(path), uploadId, partNumber, expiresIn);

  uploadPart? = (
    path: string,
    uploadId: string,
    partNumber: number,
    body: Parameters<NonNullable<StorageDriver["uploadPart"]>>[3],
    size?: number,
  ) => this.storage.uploadPart!(this.writable(path), uploadId, partNumber, body, size);

  completeMultipart? = (path: string, uploadId: string, parts: MultipartPart[]) =>
    this.storage.completeMultipart!(this.writable(path), uploadId, parts);

  abortMultipart? = (path: string, uploadId: string) =>
    this.storage.abortMultipart!(this.writable(path), uploadId);

  listParts? = (path: string, uploadId: string) => this.storage.listParts!(this.writable(path), uploadId);

  publicUrl? = (path: string) => this.storage.publicUrl!(this.storagePath(path));

  /** Leftover sweeps are the storage's own work, never a mount's. */
  sweepAbandoned?: StorageDriver["sweepAbandoned"];

  confinedTo? = (dir: string): StorageDriver =>
    new MountView(this.storage.confinedTo!(this.storagePath(dir)), this.root, this.hidden);
}
