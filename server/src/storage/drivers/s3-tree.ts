import type { S3Client } from "@aws-sdk/client-s3";
import { directoryNotEmpty, storageFailure, storageNotFound } from "../errors";
import { encodeKey } from "./s3-body";
import { decodeListedKey, type S3DriverConfig } from "./s3-client";
import { sdk } from "./s3-sdk";

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are exactly the characters XML 1.0 forbids
const XML_UNSAFE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/;
/** Copies in flight at once when moving a prefix: enough to hide latency, few enough to be polite. */
const COPY_CONCURRENCY = 8;

/**
 * Operations over whole key prefixes ("directories") and large objects, which
 * S3 has no single request for. None of them is atomic: a failure halfway
 * leaves a partial copy (and, for moves, a partial source), which the caller
 * can retry since every step is idempotent.
 */
export class S3Tree {
  private readonly singleCopyLimit: number;
  private readonly copyPartSize: number;

  constructor(
    private readonly client: S3Client,
    private readonly bucket: string,
    tuning: S3DriverConfig["tuning"] = {},
  ) {
    this.singleCopyLimit = tuning.singleCopyLimit ?? 5 * GiB;
    // A lowered limit (tests, small deployments) also lowers the part size, so copies just above it
    // really are split; never below S3's 5 MiB minimum part.
    this.copyPartSize = tuning.copyPartSize ?? Math.min(1 * GiB, Math.max(5 * MiB, this.singleCopyLimit));
  }

  /** Every key under `prefix`, a page (≤1000) at a time. */
  private async *pages(prefix: string): AsyncGenerator<{ key: string; size: number }[]> {
    let token: string | undefined;
    do {
      const out = await this.client.send(
        new sdk.ListObjectsV2Command({
          Bucket: this.bucket,
          Prefix: prefix,
          ContinuationToken: token,
          EncodingType: "url",
        }),
      );
      yield (out.Contents ?? []).flatMap((o) =>
        o.Key ? [{ key: decodeListedKey(o.Key), size: o.Size ?? 0 }] : [],
      );
      token = out.IsTruncated ? out.NextContinuationToken : undefined;
    } while (token);
  }

  private async deleteKeys(allKeys: string[]): Promise<void> {
    // Keys with characters XML 1.0 cannot carry (made by other clients) would make the whole
    // DeleteObjects body malformed; those go one by one.
    const keys = allKeys.filter((k) => !XML_UNSAFE.test(k));
    for (const key of allKeys.filter((k) => XML_UNSAFE.test(k))) {
      await this.client.send(new sdk.DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
    }
    for (let i = 0; i < keys.length; i += 1000) {
      const batch = keys.slice(i, i + 1000);
      const out = await this.client.send(
        new sdk.DeleteObjectsCommand({
          Bucket: this.bucket,
          Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true },
        }),
      );
      if (out.Errors?.length) {
        const first = out.Errors[0]!;
        throw storageFailure(`The storage could not delete ${out.Errors.length} object(s)`, {
          backend: `${first.Key}: ${first.Code}: ${first.Message ?? ""}`,
          code: first.Code,
        });
      }
    }
  }

  /** Removes a "directory". Without `recursive` only an empty one (nothing but its marker) goes. */
  async removePrefix(prefix: string, path: string, recursive: boolean): Promise<void> {
    if (!recursive) {
      const out = await this.client.send(
        new sdk.ListObjectsV2Command({
          Bucket: this.bucket,
          Prefix: prefix,
          MaxKeys: 2,
          EncodingType: "url",
        }),
      );
      const keys = (out.Contents ?? []).map((o) => decodeListedKey(o.Key ?? ""));
      if (keys.length === 0) throw storageNotFound(path);
      if (keys.some((k) => k !== prefix)) throw directoryNotEmpty(path);
      await this.deleteKeys([prefix]);
      return;
    }
    let found = false;
    // Deleting page by page keeps memory flat for huge trees; listing restarts after the last key,
    // so removed keys never reappear.
    for await (const page of this.pages(prefix)) {
      if (page.length) found = true;
      await this.deleteKeys(page.map((o) => o.key));
    }
    if (!found) throw storageNotFound(path);
  }

  /** Copies (or moves) every key under `from` to the same relative key under `to`. */
  async copyPrefix(from: string, to: string, move: boolean): Promise<void> {
    for await (const page of this.pages(from)) {
      for (let i = 0; i < page.length; i += COPY_CONCURRENCY) {
        await Promise.all(
          page
            .slice(i, i + COPY_CONCURRENCY)
            .map((o) => this.copyObject(o.key, to + o.key.slice(from.length), o.size)),
        );
      }
      if (move) await this.deleteKeys(page.map((o) => o.key));
    }
  }

  /** Server-side copy; above the single-request limit it copies part by part. */
  async copyObject(from: string, to: string, size: number): Promise<void> {
    // CopySource is URL-encoded per segment: a raw space or "+" would name another key.
    const source = `${this.bucket}/${encodeKey(from)}`;
    if (size <= this.singleCopyLimit) {
      await this.client.send(new sdk.CopyObjectCommand({ Bucket: this.bucket, Key: to, CopySource: source }));
      return;
    }
    const partSize = Math.max(this.copyPartSize, Math.ceil(size / 10_000));
    // A multipart upload starts without metadata; carry the type over as CopyObject would.
    const head = await this.client.send(new sdk.HeadObjectCommand({ Bucket: this.bucket, Key: from }));
    const { UploadId } = await this.client.send(
      new sdk.CreateMultipartUploadCommand({ Bucket: this.bucket, Key: to, ContentType: head.ContentType }),
    );
    try {
      const parts: { PartNumber: number; ETag: string | undefined }[] = [];
      for (let start = 0, n = 1; start < size; start += partSize, n++) {
        const end = Math.min(start + partSize, size) - 1;
        const out = await this.client.send(
          new sdk.UploadPartCopyCommand({
            Bucket: this.bucket,
            Key: to,
            UploadId,
            PartNumber: n,
            CopySource: source,
            CopySourceRange: `bytes=${start}-${end}`,
          }),
        );
        parts.push({ PartNumber: n, ETag: out.CopyPartResult?.ETag });
      }
      await this.client.send(
        new sdk.CompleteMultipartUploadCommand({
          Bucket: this.bucket,
          Key: to,
          UploadId,
          MultipartUpload: { Parts: parts },
        }),
      );
    } catch (e) {
      await this.client
        .send(new sdk.AbortMultipartUploadCommand({ Bucket: this.bucket, Key: to, UploadId }))
        .catch(() => {});
      throw e;
    }
  }
}
