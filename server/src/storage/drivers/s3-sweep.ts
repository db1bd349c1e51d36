import type { ListMultipartUploadsCommandOutput, S3Client } from "@aws-sdk/client-s3";
import { mapS3Error } from "./s3-client";
import { sdk } from "./s3-sdk";

/**
 * Aborts the incomplete multipart uploads under `prefix` started before
 * `cutoff` (S3 keeps their parts, and bills them, until someone does). Only
 * the storage's own prefix is looked at, so other users of a shared bucket
 * are left alone. Returns how many were aborted.
 */
export async function abortStaleUploads(
  client: S3Client,
  bucket: string,
  prefix: string,
  cutoff: Date,
): Promise<number> {
  let aborted = 0;
  let keyMarker: string | undefined;
  let uploadIdMarker: string | undefined;
  for (;;) {
    let page: ListMultipartUploadsCommandOutput;
    try {
      page = await client.send(
        new sdk.ListMultipartUploadsCommand({
          Bucket: bucket,
          ...(prefix ? { Prefix: prefix } : {}),
          ...(keyMarker ? { KeyMarker: keyMarker } : {}),
          ...(uploadIdMarker ? { UploadIdMarker: uploadIdMarker } : {}),
        }),
      );
    } catch (e) {
      throw mapS3Error(e, prefix);
    }
    for (const upload of page.Uploads ?? []) {
      if (!upload.Key || !upload.UploadId || !upload.Initiated || upload.Initiated >= cutoff) continue;
      try {
        await client.send(
          new sdk.AbortMultipartUploadCommand({ Bucket: bucket, Key: upload.Key, UploadId: upload.UploadId }),
        );
        aborted++;
      } catch (e) {
        // Completed or aborted meanwhile: nothing left to clean.
        const mapped = mapS3Error(e, upload.Key, upload.UploadId) as { error?: string };
        if (mapped.error !== "upload_not_found") throw mapped;
      }
    }
    if (!page.IsTruncated || (!page.NextKeyMarker && !page.NextUploadIdMarker)) return aborted;
    keyMarker = page.NextKeyMarker;
    uploadIdMarker = page.NextUploadIdMarker;
  }
}
