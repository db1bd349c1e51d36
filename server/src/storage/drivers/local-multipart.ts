import { randomBytes } from "node:crypto";
import { createWriteStream } from "node:fs";
import * as fs from "node:fs/promises";
import * as nodePath from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { taggedTempName } from "../../lib/writer-tag";
import { invalidPart, uploadNotFound } from "../errors";
import { concatFiles, MeasuringStream, unquoteEtag } from "../streams";
import type { MultipartPart, StoredPart, WriteOptions, WriteResult } from "../types";

/** S3's limits, kept so callers can treat both backends the same way. */
export const MAX_PART_NUMBER = 10_000;

const UPLOAD_ID = /^[0-9a-f]{32}$/;
/** Prefix of a part still being written inside an upload's directory (see lib/writer-tag.ts). */
export const PART_TEMP = "tmp";
const PART_FILE = /^(\d{5})-([0-9a-f]{32})$/;

interface UploadMeta {
  path: string;
  contentType?: string;
  createdAt: string;
}

interface Deps {
  tempDir(): Promise<string>;
  normalize(path: string): string;
  write(path: string, body: Readable, options: WriteOptions): Promise<WriteResult>;
}

/**
 * Multipart uploads for the LOCAL driver, mirroring S3's model so the API
 * layer needs one code path. Each upload is a directory `mp-<uploadId>` in the
 * hidden temp dir holding `meta.json` and one file per part named
 * `<partNumber>-<md5>`; the MD5 is the part's ETag, as on S3. Completing
 * streams the chosen parts, in order, through the driver's ordinary two-phase
 * write, so the target appears only when whole.
 */
export class LocalMultipart {
  constructor(private readonly deps: Deps) {}

  private async uploadDir(uploadId: string): Promise<string> {
    if (!UPLOAD_ID.test(uploadId)) throw uploadNotFound(uploadId);
    return nodePath.join(await this.deps.tempDir(), `mp-${uploadId}`);
  }

  /** Checks the upload exists and belongs to `path`, so one upload id cannot be completed onto another file. */
  private async open(path: string, uploadId: string): Promise<{ dir: string; meta: UploadMeta }> {
    const rel = this.deps.normalize(path);
    const dir = await this.uploadDir(uploadId);
    let meta: UploadMeta;
    try {
      meta = JSON.parse(await fs.readFile(nodePath.join(dir, "meta.json"), "utf8")) as UploadMeta;
    } catch {
      throw uploadNotFound(uploadId);
    }
    if (meta.path !== rel) throw uploadNotFound(uploadId);
    return { dir, meta };
  }

  async init(path: string, options: { contentType?: string }): Promise<string> {
    const rel = this.deps.normalize(path);
    if (rel === "") throw invalidPart("A multipart upload needs a file path");
    const uploadId = randomBytes(16).toString("hex");
    const dir = await this.uploadDir(uploadId);
    await fs.mkdir(dir);
    const meta: UploadMeta = {
      path: rel,
      contentType: options.contentType,
      createdAt: new Date().toISOString(),
    };
    await fs.writeFile(nodePath.join(dir, "meta.json"), JSON.stringify(meta));
    return uploadId;
  }

  async uploadPart(
    path: string,
    uploadId: string,
    partNumber: number,
    body: Readable,
    size?: number,
  ): Promise<{ etag: string }> {
    if (!Number.isInteger(partNumber) || partNumber < 1 || partNumber > MAX_PART_NUMBER) {
      throw invalidPart(`Part number must be between 1 and ${MAX_PART_NUMBER}`);
    }
    const { dir } = await this.open(path, uploadId);
    const tmp = nodePath.join(dir, taggedTempName(PART_TEMP));
    const measure = new MeasuringStream({ limit: size, exact: true, md5: true });
    try {
      await pipeline(body, measure, createWriteStream("", { fd: await fs.open(tmp, "wx") }));
      const etag = measure.md5();
      const prefix = `${String(partNumber).padStart(5, "0")}-`;
      // A retried part replaces the earlier attempt, as on S3.
      for (const name of await fs.readdir(dir)) {
        if (name.startsWith(prefix)) await fs.rm(nodePath.join(dir, name), { force: true });
      }
      await fs.rename(tmp, nodePath.join(dir, prefix + etag));
      return { etag };
    } catch (e) {
      await fs.rm(tmp, { force: true });
      throw e;
    }
  }

  async complete(path: string, uploadId: string, parts: MultipartPart[]): Promise<WriteResult> {
    const { dir, meta } = await this.open(path, uploadId);
    if (parts.length === 0) throw invalidPart("At least one part is required");
    const stored = new Map<number, { file: string; etag: string }>();
    for (const name of await fs.readdir(dir)) {
      const m = PART_FILE.exec(name);
      if (m) stored.set(Number(m[1]), { file: nodePath.join(dir, name), etag: m[2]! });
    }
    const sorted = [...parts].sort((a, b) => a.partNumber - b.partNumber);
    const files: string[] = [];
    let previous = 0;
    for (const part of sorted) {
      if (part.partNumber === previous) throw invalidPart(`Part ${part.partNumber} is listed twice`);
      previous = part.partNumber;
      const found = stored.get(part.partNumber);
      if (!found || found.etag !== unquoteEtag(part.etag)) {
        throw invalidPart(`Part ${part.partNumber} was not uploaded or its ETag does not match`);
      }
      files.push(found.file);
    }
    const result = await this.deps.write(meta.path, concatFiles(files), { contentType: meta.contentType });
    await fs.rm(dir, { recursive: true, force: true });
    return result;
  }

  async listParts(path: string, uploadId: string): Promise<StoredPart[]> {
    const { dir } = await this.open(path, uploadId);
    const parts: StoredPart[] = [];
    for (const name of await fs.readdir(dir)) {
      const m = PART_FILE.exec(name);
      if (!m) continue;
      const st = await fs.stat(nodePath.join(dir, name)).catch(() => null);
      if (st) parts.push({ partNumber: Number(m[1]), etag: m[2]!, size: st.size });
    }
    return parts.sort((a, b) => a.partNumber - b.partNumber);
  }

  async abort(path: string, uploadId: string): Promise<void> {
    const { dir } = await this.open(path, uploadId);
    await fs.rm(dir, { recursive: true, force: true });
  }
}
