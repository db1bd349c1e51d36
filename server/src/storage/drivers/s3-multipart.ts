import type { Readable } from "node:stream";
import type { HeadObjectCommandOutput, S3Client } from "@aws-sdk/client-s3";
import { invalidPart } from "../errors";
import { mimeTypeFor } from "../mime";
import { normalizePath } from "../path-safety";
import { unquoteEtag } from "../streams";
import type { MultipartPart, PresignedRequest, StoredPart, WriteResult } from "../types";
import { checkPartNumber, feedBody } from "./s3-body";
import { mapS3Error, uploadHeadersFor } from "./s3-client";
import { sdk } from "./s3-sdk";

interface S3Context {
  client: S3Client;
  bucket: string;
  providerType: string | null | undefined;
  /** Object key for a virtual path (validates it). */
  key(path: string): string;
  expiry(expiresIn?: number): number;
  head(key: string): Promise<HeadObjectCommandOutput | null>;
}

/** Native S3 multipart uploads, for parts sent through the server or straight from clients. */
export class S3Multipart {
  constructor(private readonly ctx: S3Context) {}

  async init(path: string, options: { contentType?: string } = {}): Promise<string> {
    const rel = normalizePath(path);
    if (rel === "") throw invalidPart("A multipart upload needs a file path");
    try {
      const out = await this.ctx.client.send(
        new sdk.CreateMultipartUploadCommand({
          Bucket: this.ctx.bucket,
          Key: this.ctx.key(rel),
          ContentType: options.contentType || mimeTypeFor(rel),
        }),
      );
      if (!out.UploadId) throw new Error("CreateMultipartUpload returned no UploadId");
      return out.UploadId;
    } catch (e) {
      throw mapS3Error(e, rel);
    }
  }

  async presignPart(
    path: string,
    uploadId: string,
    partNumber: number,
    expiresIn?: number,
  ): Promise<PresignedRequest> {
    checkPartNumber(partNumber);
    const seconds = this.ctx.expiry(expiresIn);
    const command = new sdk.UploadPartCommand({
      Bucket: this.ctx.bucket,
      Key: this.ctx.key(path),
      UploadId: uploadId,
      PartNumber: partNumber,
    });
    const url = await sdk.getSignedUrl(this.ctx.client, command, { expiresIn: seconds });
    return {
      url,
      method: "PUT",
      headers: uploadHeadersFor(this.ctx.providerType),
      expiresAt: new Date(Date.now() + seconds * 1000),
    };
  }

  /** `size` is required here: S3 needs each part's length up front. */
  async uploadPart(path: string, uploadId: string, partNumber: number, body: Readable, size?: number) {
    checkPartNumber(partNumber);
    if (size === undefined) throw invalidPart("Part size is required for S3 storage");
    const rel = normalizePath(path);
    const feed = feedBody(body, size);
    try {
      const out = await this.ctx.client.send(
        new sdk.UploadPartCommand({
          Bucket: this.ctx.bucket,
          Key: this.ctx.key(rel),
          UploadId: uploadId,
          PartNumber: partNumber,
          Body: feed.measure,
          ContentLength: size,
        }),
        { abortSignal: feed.signal },
      );
      if (feed.error()) throw feed.error();
      return { etag: unquoteEtag(out.ETag) ?? "" };
    } catch (e) {
      feed.stop();
      throw feed.error() ?? mapS3Error(e, rel, uploadId);
    } finally {
      feed.done();
    }
  }

  async complete(path: string, uploadId: string, parts: MultipartPart[]): Promise<WriteResult> {
    const rel = normalizePath(path);
    const sorted = [...parts].sort((a, b) => a.partNumber - b.partNumber);
    if (sorted.length === 0) throw invalidPart("At least one part is required");
    sorted.forEach((p, i) => {
      checkPartNumber(p.partNumber);
      if (i > 0 && sorted[i - 1]!.partNumber === p.partNumber)
        throw invalidPart(`Part ${p.partNumber} is listed twice`);
    });
    try {
      await this.ctx.client.send(
        new sdk.CompleteMultipartUploadCommand({
          Bucket: this.ctx.bucket,
          Key: this.ctx.key(rel),
          UploadId: uploadId,
          MultipartUpload: {
            Parts: sorted.map((p) => ({ PartNumber: p.partNumber, ETag: `"${unquoteEtag(p.etag)}"` })),
          },
        }),
      );
      const st = await this.ctx.head(this.ctx.key(rel));
      return { size: st?.ContentLength ?? 0, etag: unquoteEtag(st?.ETag) };
    } catch (e) {
      throw mapS3Error(e, rel, uploadId);
    }
  }

  async listParts(path: string, uploadId: string): Promise<StoredPart[]> {
    const rel = normalizePath(path);
    const parts: StoredPart[] = [];
    let marker: string | undefined;
    try {
      for (;;) {
        const out = await this.ctx.client.send(
          new sdk.ListPartsCommand({
            Bucket: this.ctx.bucket,
            Key: this.ctx.key(rel),
            UploadId: uploadId,
            PartNumberMarker: marker,
          }),
        );
        for (const p of out.Parts ?? []) {
          if (p.PartNumber === undefined) continue;
          parts.push({ partNumber: p.PartNumber, etag: unquoteEtag(p.ETag) ?? "", size: p.Size ?? 0 });
        }
        if (!out.IsTruncated || !out.NextPartNumberMarker) break;
        marker = String(out.NextPartNumberMarker);
      }
    } catch (e) {
      throw mapS3Error(e, rel, uploadId);
    }
    return parts.sort((a, b) => a.partNumber - b.partNumber);
  }

  async abort(path: string, uploadId: string): Promise<void> {
    const rel = normalizePath(path);
    try {
      await this.ctx.client.send(
        new sdk.AbortMultipartUploadCommand({
          Bucket: this.ctx.bucket,
          Key: this.ctx.key(rel),
          UploadId: uploadId,
        }),
      );
    } catch (e) {
      throw mapS3Error(e, rel, uploadId);
    }
  }
}
