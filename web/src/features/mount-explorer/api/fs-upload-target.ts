import type { FsMultipartResume, FsMultipartStarted } from "@clipshare/shared";
import { api } from "../../../lib/api";
import type { UploadTarget } from "../../../lib/upload-engine/create-upload";
import { goneWhenNotFound, UploadEngineError } from "../../../lib/upload-engine/errors";
import type { MultipartBackend } from "../../../lib/upload-engine/multipart-uploader";
import { uploadFile } from "./fs";

/** What an explorer upload leaves: the file's path. */
export interface FsUploadResult {
  path: string;
}

type FsRef = { dir: string; fileName: string };

/** `fs/multipart/*`: S3 presigned part URLs, or ClipShare's signed part URLs for LOCAL mounts. */
function fsMultipart(dir: string, fileName: string, size: number): MultipartBackend<FsRef, FsUploadResult> {
  const filePath = `${dir.replace(/\/+$/, "")}/${fileName}`;
  return {
    async init(plan, signal) {
      const data = await api.post<FsMultipartStarted | null>(
        "/fs/multipart/init",
        { path: dir, fileName, fileSize: size, partSize: plan.partSize, partCount: plan.partCount },
        { signal },
      );
      if (!data?.uploadId || !Array.isArray(data.presignedUrls))
        throw new UploadEngineError("infoIncomplete");
      return {
        session: {
          uploadId: data.uploadId,
          ref: { dir, fileName },
          partSize: data.partSize ?? plan.partSize,
          partCount: data.partCount ?? plan.partCount,
          totalSize: plan.totalSize,
        },
        urls: data.presignedUrls,
      };
    },
    async resume(session, signal) {
      try {
        const data = await api.post<FsMultipartResume>(
          "/fs/multipart/resume",
          { path: session.ref.dir, uploadId: session.uploadId, fileName: session.ref.fileName },
          { signal },
        );
        return { parts: data?.parts ?? [], urls: data?.presignedUrls ?? [] };
      } catch (error) {
        throw goneWhenNotFound(error);
      }
    },
    async complete(session, parts, signal) {
      await api.post(
        "/fs/multipart/complete",
        { path: session.ref.dir, uploadId: session.uploadId, parts, fileName, fileSize: size },
        { signal, upload: true },
      );
      return { path: filePath };
    },
    async abort(session) {
      await api.post("/fs/multipart/abort", {
        path: session.ref.dir,
        uploadId: session.uploadId,
        fileName: session.ref.fileName,
      });
    },
  };
}

/** Files into an explorer folder: through the server when small, multipart above two parts. */
export function fsUploadTarget(dir: string): UploadTarget<FsUploadResult> {
  return {
    scope: JSON.stringify(["fs", dir]),
    sendWhole: async ({ file }, context) => {
      await uploadFile(dir, file, file.name, (loaded) => context.onProgress(loaded), context.signal);
      return { path: `${dir.replace(/\/+$/, "")}/${file.name}` };
    },
    multipart: ({ file }) => fsMultipart(dir, file.name, file.size),
  };
}
