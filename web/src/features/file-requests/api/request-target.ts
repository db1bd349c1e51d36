import { fileRequestApi, type ReceivedFile, uploadMimeType } from "@clipshare/shared";
import { api } from "../../../lib/api";
import type { UploadTarget } from "../../../lib/upload-engine/create-upload";
import { goneWhenNotFound, TransferError, UploadEngineError } from "../../../lib/upload-engine/errors";
import type { MultipartBackend } from "../../../lib/upload-engine/multipart-uploader";
import { xhrPartTransport } from "../../../lib/upload-engine/xhr-transfer";

export const requestsApi = fileRequestApi(api);

/** Who sends the files, as the uploader typed it (both optional). */
export interface Sender {
  name: string;
  note: string;
}

type RequestRef = Record<string, never>;

/**
 * A visitor's uploads into a file request: always the request's multipart
 * routes (a small file is one part), parts to the storage or to ClipShare's
 * signed URL, with the same engine, retries and resume as /upload.
 */
export function requestTarget(
  slug: string,
  token: string | null,
  sender: Sender,
): UploadTarget<ReceivedFile> {
  const fileFields = (name: string, file: File) => ({
    filename: name,
    mimetype: uploadMimeType(name, file.type),
    ...(sender.name.trim() ? { uploader_name: sender.name.trim() } : {}),
    ...(sender.note.trim() ? { note: sender.note.trim() } : {}),
  });
  const multipart = (name: string, file: File): MultipartBackend<RequestRef, ReceivedFile> => ({
    async init(plan, signal) {
      const started = await requestsApi.startUpload(
        slug,
        token,
        {
          ...fileFields(name, file),
          size: plan.totalSize,
          part_size: plan.partSize,
          part_count: plan.partCount,
        },
        signal,
      );
      return {
        session: {
          uploadId: started.upload_id,
          ref: {},
          partSize: started.part_size,
          partCount: started.part_count,
          totalSize: plan.totalSize,
        },
        urls: started.presigned_urls,
      };
    },
    async resume(session, signal) {
      try {
        const state = await requestsApi.resumeUpload(slug, token, session.uploadId, signal);
        return { parts: state.parts, urls: state.presigned_urls };
      } catch (error) {
        throw goneWhenNotFound(error);
      }
    },
    complete: (session, parts, signal) =>
      requestsApi.completeUpload(slug, token, session.uploadId, parts, signal),
    async abort(session) {
      await requestsApi.abortUpload(slug, token, session.uploadId);
    },
  });
  return {
    scope: JSON.stringify(["request", slug]),
    // One part: start, PUT it with progress, complete; a cancelled PUT gives the slot back.
    async sendWhole({ file, name }, context) {
      const backend = multipart(name, file);
      const plan = { totalSize: file.size, partSize: Math.max(1, file.size), partCount: 1 };
      const { session, urls } = await backend.init(plan, context.signal);
      try {
        const sent = await xhrPartTransport.put({
          url: urls[0]!.url,
          body: file,
          signal: context.signal,
          onProgress: context.onProgress,
        });
        if (sent.status < 200 || sent.status >= 300) throw new TransferError("status", sent.status);
        if (!sent.etag) throw new UploadEngineError("partFailed");
        return await backend.complete(
          session,
          [{ partNumber: 1, etag: sent.etag.replace(/"/g, "") }],
          context.signal,
        );
      } catch (error) {
        await backend.abort(session).catch(() => undefined);
        throw error;
      }
    },
    multipart: ({ file, name }) => multipart(name, file),
  };
}
