import type { Readable } from "node:stream";
import type {
  MultipartInitOptions,
  MultipartPart,
  StorageCapabilities,
  StorageDriver,
  WriteResult,
} from "../types";

/** What keeps a driver's multipart uploads: parts on ClipShare's disk (LOCAL) or S3's own API. */
export interface MultipartEngine {
  init(path: string, options: MultipartInitOptions): Promise<string>;
  uploadPart: NonNullable<StorageDriver["uploadPart"]>;
  complete: NonNullable<StorageDriver["completeMultipart"]>;
  abort: NonNullable<StorageDriver["abortMultipart"]>;
  listParts: NonNullable<StorageDriver["listParts"]>;
}

/**
 * The StorageDriver multipart methods of a driver that always has them
 * (capabilities.multipart is true): each hands over to the driver's engine.
 */
export abstract class MultipartDriver {
  protected abstract readonly multipart: MultipartEngine;

  initMultipart(path: string, options: MultipartInitOptions = {}): Promise<string> {
    return this.multipart.init(path, options);
  }

  uploadPart(path: string, uploadId: string, partNumber: number, body: Readable, size?: number) {
    return this.multipart.uploadPart(path, uploadId, partNumber, body, size);
  }

  completeMultipart(path: string, uploadId: string, parts: MultipartPart[]): Promise<WriteResult> {
    return this.multipart.complete(path, uploadId, parts);
  }

  abortMultipart(path: string, uploadId: string): Promise<void> {
    return this.multipart.abort(path, uploadId);
  }

  listParts(path: string, uploadId: string) {
    return this.multipart.listParts(path, uploadId);
  }
}

/**
 * A backend whose bytes always pass through ClipShare (LOCAL, the remote
 * trees): no signed or public URLs, ranged reads, multipart parts kept here.
 */
export function streamedCapabilities(multipart: boolean, serverSideCopy: boolean): StorageCapabilities {
  return {
    presignRead: false,
    presignWrite: false,
    multipart,
    serverSideCopy,
    publicUrl: false,
    rangeRead: true,
  };
}
