import { createEncryptedUpload, type EncryptedTarget } from "./encrypted-upload";
import type { EngineOptions, UploadSource } from "./engine-types";
import { type MultipartBackend, MultipartUploader } from "./multipart-uploader";
import { partSizeFor, planParts } from "./part-plan";
import { resumeKey, resumeStore } from "./resume-store";
import { type SingleSendContext, SingleUpload } from "./single-upload";
import type { Upload } from "./upload-base";
import { xhrPartTransport } from "./xhr-transfer";

export type { EngineOptions, UploadSource } from "./engine-types";

/** Where files go: a share, an explorer folder, a URL upload. */
export interface UploadTarget<R> {
  /** Names the destination in saved progress (same file, other destination → another upload). */
  scope: string;
  /** The whole file in one request. */
  sendWhole(source: UploadSource, context: SingleSendContext): Promise<R>;
  /** Multipart routes for this file, where the destination has them. */
  multipart(source: UploadSource): MultipartBackend<unknown, R> | null;
  /** Set when files are to be encrypted end to end on the way out (always multipart then). */
  encrypted?: EncryptedTarget<R>;
}

/** Picks the path for one file: one request up to two parts' worth, multipart above. */
export function createUpload<R>(
  source: UploadSource,
  target: UploadTarget<R>,
  options: EngineOptions = {},
): Upload<R> {
  if (target.encrypted) return createEncryptedUpload(source, target.encrypted, options);
  const { file } = source;
  const plan = planParts(file.size, partSizeFor(file.size, options.basePartSize));
  const backend = plan.partCount > 2 ? target.multipart(source) : null;
  if (!backend) return new SingleUpload(file.size, (context) => target.sendWhole(source, context));
  return new MultipartUploader({
    file,
    plan,
    backend,
    transport: options.transport ?? xhrPartTransport,
    store: options.store ?? resumeStore(),
    storeKey: resumeKey(target.scope, {
      name: source.name,
      size: file.size,
      lastModified: file.lastModified,
    }),
  });
}
