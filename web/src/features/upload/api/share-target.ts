import { type ShareMultipartResume, type ShareMultipartStarted, uploadMimeType } from "@clipshare/shared";
import { api } from "../../../lib/api";
import type { UploadTarget } from "../../../lib/upload-engine/create-upload";
import { goneWhenNotFound, UploadEngineError } from "../../../lib/upload-engine/errors";
import type { MultipartBackend } from "../../../lib/upload-engine/multipart-uploader";
import type { MultipartSession } from "../../../lib/upload-engine/resume-store";
import { UploadStepError } from "../../../lib/upload-errors";
import { presignBody, type UploadFields } from "../upload-form-model";
import { toResult, type UploadResult, uploadFile } from "./upload-file";
import type { PublishedFile } from "./uploads";

type ShareRef = { fileId: string };

/** Share options as numbers where the routes take numbers. */
function shareOptions(fields: UploadFields) {
  const { remark, password, expires_in, max_views } = fields;
  return {
    ...(remark ? { remark } : {}),
    ...(password ? { password } : {}),
    ...(expires_in ? { expires_in: Number(expires_in) } : {}),
    ...(max_views ? { max_views: Number(max_views) } : {}),
  };
}

/** A share's multipart routes (`/api/files/multipart/*`): parts go straight to S3, or to ClipShare for LOCAL. */
function shareMultipart(
  fields: UploadFields,
  name: string,
  file: File,
  sealedMeta?: () => Promise<string>,
): MultipartBackend<ShareRef, UploadResult> {
  const mimetype = uploadMimeType(name, file.type);
  // Encrypted: the server is told neither name nor type, only the sealed record of both.
  const described = async () =>
    sealedMeta
      ? {
          ...presignBody(fields, {
            name: "encrypted.bin",
            size: file.size,
            type: "application/octet-stream",
          }),
          encrypted_meta: await sealedMeta(),
        }
      : presignBody(fields, { name, size: file.size, type: mimetype });
  const idOf = (session: MultipartSession<ShareRef>) => ({
    file_id: session.ref.fileId,
    upload_id: session.uploadId,
  });
  return {
    async init(plan, signal) {
      let data: ShareMultipartStarted | null;
      try {
        data = await api.post<ShareMultipartStarted | null>(
          "/files/multipart/init",
          {
            ...(await described()),
            total_size: plan.totalSize,
            part_size: plan.partSize,
            part_count: plan.partCount,
          },
          { signal },
        );
      } catch (error) {
        throw new UploadStepError("multipartInit", error);
      }
      if (!data?.file_id || !data.upload_id || !Array.isArray(data.presigned_urls))
        throw new UploadEngineError("infoIncomplete");
      return {
        session: {
          uploadId: data.upload_id,
          ref: { fileId: data.file_id },
          partSize: data.part_size ?? plan.partSize,
          partCount: data.part_count ?? plan.partCount,
          totalSize: plan.totalSize,
        },
        urls: data.presigned_urls,
      };
    },
    async resume(session, signal) {
      try {
        const data = await api.post<ShareMultipartResume>("/files/multipart/resume", idOf(session), {
          signal,
        });
        return { parts: data?.parts ?? [], urls: data?.presigned_urls ?? [] };
      } catch (error) {
        throw goneWhenNotFound(error);
      }
    },
    async complete(session, parts, signal) {
      const data = await api.post<(PublishedFile & { file_id?: string }) | null>(
        "/files/multipart/complete",
        { ...idOf(session), parts, ...shareOptions(fields) },
        { signal, upload: true },
      );
      if (!data?.slug) throw new UploadEngineError("infoIncomplete");
      return toResult(
        { ...data, id: data.id ?? data.file_id ?? session.ref.fileId },
        { name, size: file.size },
        "multipart",
      );
    },
    async abort(session) {
      await api.post("/files/multipart/abort", idOf(session));
    },
  };
}

/**
 * Files shared from /upload: one presigned PUT for small files, multipart above.
 * With `encrypt`, every file is encrypted end to end and goes up in parts; the
 * password then wraps the key in the link instead of protecting the share on the server.
 */
export function shareTarget(fields: UploadFields, encrypt = false): UploadTarget<UploadResult> {
  const scope = JSON.stringify(["share", fields.s3_config_id ?? "", fields.path ?? "", fields.slug ?? ""]);
  const { password = "", ...serverFields } = fields;
  return {
    scope,
    sendWhole: ({ file, name }, context) => uploadFile(file, name, fields, context),
    multipart: ({ file, name }) => shareMultipart(fields, name, file),
    ...(encrypt
      ? {
          encrypted: {
            scope,
            password,
            multipart: ({ file, name }, sealedMeta) => shareMultipart(serverFields, name, file, sealedMeta),
            withKey: (result, { file, name }, fragment) => ({
              ...result,
              filename: name,
              size: file.size,
              url: `${result.url}#${fragment}`,
            }),
          },
        }
      : {}),
  };
}
