import { Readable } from "node:stream";
import type { HeadObjectCommandOutput, S3Client } from "@aws-sdk/client-s3";
import { contentDisposition } from "../content-disposition";
import { invalidPath, isADirectory, notADirectory, rangeNotSatisfiable, targetExists } from "../errors";
import { mimeTypeFor } from "../mime";
import { baseName, joinPath, normalizePath, parentPath } from "../path-safety";
import { unquoteEtag } from "../streams";
import type {
  AbandonedAges,
  AbandonedCounts,
  ListOptions,
  ListPage,
  MoveOptions,
  PresignedRequest,
  PresignReadOptions,
  PresignWriteOptions,
  ReadRange,
  ReadResult,
  StorageCapabilities,
  StorageDriver,
  StorageEntry,
  WriteOptions,
  WriteResult,
} from "../types";
import { MultipartDriver } from "./multipart-driver";
import { rangeHeader } from "./range";
import { addressableName, encodeKey, parseContentRange, rangeShapeCheck, uploadStream } from "./s3-body";
import {
  createS3Client,
  decodeListedKey,
  isS3NotFound,
  mapS3Error,
  type S3DriverConfig,
  uploadHeadersFor,
} from "./s3-client";
import { S3Multipart } from "./s3-multipart";
import { sdk } from "./s3-sdk";
import { abortStaleUploads } from "./s3-sweep";
import { S3Tree } from "./s3-tree";

export { B2_PROVIDER, type S3DriverConfig, uploadHeadersFor } from "./s3-client";

const MAX_LIST = 1000;
const MAX_EXPIRES = 7 * 24 * 3600;

/**
 * Any S3-compatible bucket. Virtual paths map to keys under `defaultFolder`;
 * directories are key prefixes, optionally with a zero-byte `dir/` marker
 * (written by `mkdir`, hidden from listings) so empty directories survive.
 */
export class S3Driver extends MultipartDriver implements StorageDriver {
  readonly kind = "S3" as const;
  readonly capabilities: StorageCapabilities;
  readonly client: S3Client;
  readonly bucket: string;
  private readonly prefix: string;
  private readonly tree: S3Tree;
  protected readonly multipart: S3Multipart;
  /** Present only with a custom host, so the method's presence matches the capability flag. */
  readonly publicUrl?: (path: string) => string;

  constructor(private readonly config: S3DriverConfig) {
    super();
    this.client = createS3Client(config);
    this.bucket = config.bucket;
    const folder = normalizePath((config.defaultFolder ?? "").replace(/^\/+/, ""));
    this.prefix = folder ? `${folder}/` : "";
    this.capabilities = {
      presignRead: true,
      presignWrite: true,
      multipart: true,
      serverSideCopy: true,
      publicUrl: Boolean(config.customHost?.trim()),
      rangeRead: true,
    };
    if (this.capabilities.publicUrl) this.publicUrl = (path) => this.buildPublicUrl(path);
    this.tree = new S3Tree(this.client, this.bucket, config.tuning);
    this.multipart = new S3Multipart({
      client: this.client,
      bucket: this.bucket,
      providerType: config.providerType,
      key: (p) => this.key(p),
      expiry: (s) => this.expiry(s),
      head: (k) => this.head(k),
    });
  }

  /** The object key for a virtual path (validated). */
  key(path: string): string {
    return this.prefix + normalizePath(path);
  }

  private dirPrefix(rel: string): string {
    return rel === "" ? this.prefix : `${this.prefix}${rel}/`;
  }

  private expiry(expiresIn?: number): number {
    const seconds = Math.trunc(expiresIn ?? this.config.signatureExpiresIn ?? 3600);
    return Math.min(Math.max(seconds, 1), MAX_EXPIRES);
  }

  private async head(key: string): Promise<HeadObjectCommandOutput | null> {
    try {
      return await this.client.send(new sdk.HeadObjectCommand({ Bucket: this.bucket, Key: key }));
    } catch (e) {
      if (isS3NotFound(e)) return null;
      throw e;
    }
  }

  async stat(path: string): Promise<StorageEntry | null> {
    const rel = normalizePath(path);
    const dir: StorageEntry = {
      path: rel,
      name: baseName(rel),
      isDirectory: true,
      size: 0,
      modified: null,
      etag: null,
      contentType: null,
    };
    if (rel === "") return dir;
    try {
      // Both questions at once: a file and a same-named prefix can coexist, and the file wins.
      const [file, children] = await Promise.all([
        this.head(this.prefix + rel),
        this.client.send(
          new sdk.ListObjectsV2Command({
            Bucket: this.bucket,
            Prefix: this.dirPrefix(rel),
            MaxKeys: 1,
            EncodingType: "url",
          }),
        ),
      ]);
      if (file) {
        return {
          path: rel,
          name: baseName(rel),
          isDirectory: false,
          size: file.ContentLength ?? 0,
          modified: file.LastModified ?? null,
          etag: unquoteEtag(file.ETag),
          contentType: file.ContentType || mimeTypeFor(rel),
        };
      }
      return (children.KeyCount ?? children.Contents?.length ?? 0) > 0 ? dir : null;
    } catch (e) {
      throw mapS3Error(e, rel);
    }
  }

  async exists(path: string): Promise<boolean> {
    return (await this.stat(path)) !== null;
  }

  async list(dir: string, options: ListOptions = {}): Promise<ListPage> {
    const rel = normalizePath(dir);
    const prefix = this.dirPrefix(rel);
    const limit = Math.min(Math.max(Math.trunc(options.limit ?? MAX_LIST), 1), MAX_LIST);
    try {
      const out = await this.client.send(
        new sdk.ListObjectsV2Command({
          Bucket: this.bucket,
          Prefix: prefix,
          Delimiter: "/",
          MaxKeys: limit,
          ContinuationToken: options.cursor || undefined,
          EncodingType: "url",
        }),
      );
      const entries: StorageEntry[] = [];
      for (const p of out.CommonPrefixes ?? []) {
        const name = addressableName(p.Prefix && decodeListedKey(p.Prefix).slice(prefix.length, -1));
        if (name) entries.push({ ...emptyDir, path: joinPath(rel, name), name });
      }
      for (const o of out.Contents ?? []) {
        const name = addressableName(o.Key && decodeListedKey(o.Key).slice(prefix.length));
        if (!name) continue; // the directory's own marker, or a key no path can name
        entries.push({
          path: joinPath(rel, name),
          name,
          isDirectory: false,
          size: o.Size ?? 0,
          modified: o.LastModified ?? null,
          etag: unquoteEtag(o.ETag),
          contentType: mimeTypeFor(name),
        });
      }
      // S3 returns prefixes and keys as two lists; merge them back into key order.
      entries.sort((a, b) => Buffer.compare(Buffer.from(a.name), Buffer.from(b.name)));
      const nextCursor = out.IsTruncated ? (out.NextContinuationToken ?? null) : null;
      if (!options.cursor && rel !== "" && (out.KeyCount ?? 0) === 0) {
        throw (await this.head(this.prefix + rel))
          ? notADirectory(rel)
          : mapS3Error({ name: "NotFound" }, rel);
      }
      return { entries, nextCursor };
    } catch (e) {
      throw mapS3Error(e, rel);
    }
  }

  async read(path: string, range?: ReadRange): Promise<ReadResult> {
    const rel = normalizePath(path);
    if (rel === "") throw isADirectory(rel);
    const key = this.prefix + rel;
    try {
      rangeShapeCheck(range);
      // "bytes=-0" is unsatisfiable by definition; some servers answer it with the whole object.
      if (range?.suffix === 0) throw Object.assign(new Error("Empty suffix range"), { name: "InvalidRange" });
      const out = await this.client.send(
        new sdk.GetObjectCommand({ Bucket: this.bucket, Key: key, Range: rangeHeader(range) }),
      );
      const contentLength = out.ContentLength ?? 0;
      const served = parseContentRange(out.ContentRange);
      return {
        body: (out.Body as Readable | undefined) ?? Readable.from([]),
        size: served?.size ?? contentLength,
        contentLength,
        range: served ? { start: served.start, end: served.end } : null,
        etag: unquoteEtag(out.ETag),
        modified: out.LastModified ?? null,
        contentType: out.ContentType || mimeTypeFor(rel),
      };
    } catch (e) {
      if ((e as Error).name === "InvalidRange") {
        const st = await this.head(key);
        if (st) throw rangeNotSatisfiable(st.ContentLength ?? 0);
      }
      throw mapS3Error(e, rel);
    }
  }

  async write(path: string, body: Readable, options: WriteOptions = {}): Promise<WriteResult> {
    const rel = normalizePath(path);
    if (rel === "") throw isADirectory(rel);
    try {
      return await uploadStream(this.client, {
        bucket: this.bucket,
        key: this.prefix + rel,
        contentType: options.contentType || mimeTypeFor(rel),
        partSize: this.config.tuning?.uploadPartSize,
        body,
        size: options.size,
        signal: options.signal,
      });
    } catch (e) {
      throw mapS3Error(e, rel);
    }
  }

  /**
   * A prefix exists only while keys live under it, so removing or moving out a
   * folder's last entry would make the folder itself vanish; on disk it stays.
   * Writing its marker then keeps both backends alike for the file explorer.
   */
  private async keepDirectory(rel: string): Promise<void> {
    if (rel === "") return;
    const out = await this.client.send(
      new sdk.ListObjectsV2Command({
        Bucket: this.bucket,
        Prefix: this.dirPrefix(rel),
        MaxKeys: 1,
        EncodingType: "url",
      }),
    );
    if ((out.KeyCount ?? out.Contents?.length ?? 0) > 0) return;
    await this.client.send(
      new sdk.PutObjectCommand({ Bucket: this.bucket, Key: this.dirPrefix(rel), Body: "", ContentLength: 0 }),
    );
  }

  async mkdir(dir: string): Promise<void> {
    const rel = normalizePath(dir);
    if (rel === "") return;
    try {
      if (await this.head(this.prefix + rel)) throw notADirectory(rel);
      await this.client.send(
        new sdk.PutObjectCommand({
          Bucket: this.bucket,
          Key: this.dirPrefix(rel),
          Body: "",
          ContentLength: 0,
        }),
      );
    } catch (e) {
      throw mapS3Error(e, rel);
    }
  }

  async remove(path: string, options: { recursive?: boolean } = {}): Promise<void> {
    const rel = normalizePath(path);
    if (rel === "") throw invalidPath("The root cannot be removed");
    try {
      if (await this.head(this.prefix + rel)) {
        await this.client.send(new sdk.DeleteObjectCommand({ Bucket: this.bucket, Key: this.prefix + rel }));
      } else {
        await this.tree.removePrefix(this.dirPrefix(rel), rel, Boolean(options.recursive));
      }
      await this.keepDirectory(parentPath(rel));
    } catch (e) {
      throw mapS3Error(e, rel);
    }
  }

  async rename(from: string, to: string, options: MoveOptions = {}): Promise<void> {
    await this.transfer(from, to, options, true);
  }

  async copy(from: string, to: string, options: MoveOptions = {}): Promise<void> {
    await this.transfer(from, to, options, false);
  }

  private async transfer(from: string, to: string, options: MoveOptions, move: boolean): Promise<void> {
    const src = normalizePath(from);
    const dst = normalizePath(to);
    if (src === "" || dst === "") throw invalidPath("The root cannot be moved or replaced");
    if (dst === src || dst.startsWith(`${src}/`)) throw invalidPath("Cannot move or copy a path into itself");
    const [source, target] = await Promise.all([this.stat(src), this.stat(dst)]);
    if (!source) throw mapS3Error({ name: "NotFound" }, src);
    if (target && (!options.overwrite || target.isDirectory || source.isDirectory)) throw targetExists(dst);
    try {
      if (source.isDirectory) {
        await this.tree.copyPrefix(this.dirPrefix(src), this.dirPrefix(dst), move);
      } else {
        await this.tree.copyObject(this.prefix + src, this.prefix + dst, source.size);
        if (move)
          await this.client.send(
            new sdk.DeleteObjectCommand({ Bucket: this.bucket, Key: this.prefix + src }),
          );
      }
      if (move) await this.keepDirectory(parentPath(src));
    } catch (e) {
      throw mapS3Error(e, dst);
    }
  }

  async presignRead(path: string, options: PresignReadOptions = {}): Promise<PresignedRequest> {
    const rel = normalizePath(path);
    const expiresIn = this.expiry(options.expiresIn);
    const command = new sdk.GetObjectCommand({
      Bucket: this.bucket,
      Key: this.prefix + rel,
      ResponseContentDisposition: options.disposition
        ? contentDisposition(options.disposition, options.filename ?? baseName(rel))
        : undefined,
      ResponseContentType: options.contentType,
    });
    const url = await sdk.getSignedUrl(this.client, command, { expiresIn });
    return { url, method: "GET", headers: {}, expiresAt: new Date(Date.now() + expiresIn * 1000) };
  }

  async presignWrite(path: string, options: PresignWriteOptions = {}): Promise<PresignedRequest> {
    const rel = normalizePath(path);
    if (rel === "") throw isADirectory(rel);
    const expiresIn = this.expiry(options.expiresIn);
    const contentType = options.contentType || mimeTypeFor(rel);
    const command = new sdk.PutObjectCommand({
      Bucket: this.bucket,
      Key: this.prefix + rel,
      ContentType: contentType,
    });
    const url = await sdk.getSignedUrl(this.client, command, { expiresIn });
    return {
      url,
      method: "PUT",
      headers: { "Content-Type": contentType, ...uploadHeadersFor(this.config.providerType) },
      expiresAt: new Date(Date.now() + expiresIn * 1000),
    };
  }

  /** Incomplete multipart uploads under this storage's prefix (S3 keeps no temp files of ours). */
  async sweepAbandoned(ages: AbandonedAges, now = new Date()): Promise<AbandonedCounts> {
    const cutoff = new Date(now.getTime() - ages.multipartMs);
    return {
      tempFiles: 0,
      multipartUploads: await abortStaleUploads(this.client, this.bucket, this.prefix, cutoff),
    };
  }

  presignPart(path: string, uploadId: string, partNumber: number, expiresIn?: number) {
    return this.multipart.presignPart(path, uploadId, partNumber, expiresIn);
  }

  private buildPublicUrl(path: string): string {
    const host = (this.config.customHost ?? "").trim().replace(/\/+$/, "");
    const base = /^https?:\/\//i.test(host) ? host : `https://${host}`;
    return `${base}/${encodeKey(this.key(path))}`;
  }
}

const emptyDir = { isDirectory: true, size: 0, modified: null, etag: null, contentType: null } as const;
