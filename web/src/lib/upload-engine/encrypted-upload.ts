/**
 * End-to-end encrypted uploads: the file is encrypted part by part on its way
 * out, so encrypted uploads are multipart and resumable like plain ones and no
 * request is larger than one part.
 *
 * Every part holds whole sealed chunks (the part size is a multiple of
 * chunk size + tag), so each part is sealed on its own from its slice of the
 * file. The key and the stream header are saved with the upload's progress:
 * a resumed upload seals every part with the same key and nonce prefix, so the
 * parts already stored and the ones sent now make one stream.
 */
import {
  chunkCount,
  chunkPlainRange,
  createHeader,
  E2E_CHUNK_SIZE,
  E2E_TAG_BYTES,
  type E2EHeader,
  type E2EKey,
  encryptedSize,
  fromBase64Url,
  generateKeyBytes,
  importKey,
  keyFragment,
  MULTIPART_PART_SIZE,
  parseHeader,
  sealChunks,
  sealMetadata,
  toBase64Url,
} from "@clipshare/shared";
import type { EngineOptions, UploadSource } from "./engine-types";
import { type MultipartBackend, MultipartUploader } from "./multipart-uploader";
import { MAX_PARTS, type PartPlan, type PlannedPart } from "./part-plan";
import { resumeKey, resumeStore } from "./resume-store";
import type { Upload } from "./upload-base";
import { xhrPartTransport } from "./xhr-transfer";

/** The key and stream header of one encrypted upload, as saved with its progress (base64url). */
export interface E2ESecrets {
  key: string;
  header: string;
}

/** What a destination needs to take encrypted uploads (file shares do). */
export interface EncryptedTarget<R> {
  scope: string;
  /** The multipart routes, told the sealed name and type when the upload starts. */
  multipart(source: UploadSource, sealedMeta: () => Promise<string>): MultipartBackend<unknown, R> | null;
  /** The finished upload as the page shows it: its link completed with the key. */
  withKey(result: R, source: UploadSource, fragment: string): R;
  /** Wraps the key in the link (never sent to the server); empty for none. */
  password: string;
}

type EncryptedRef = { inner: unknown; e2e: E2ESecrets };

const SLOT = E2E_CHUNK_SIZE + E2E_TAG_BYTES;

/** Parts of whole sealed slots, at least `basePartSize` each (storage's minimum) and at most 10,000 of them. */
export function encryptedPlan(plainSize: number, basePartSize = MULTIPART_PART_SIZE): PartPlan {
  const totalSize = encryptedSize(plainSize);
  const slotsPerPart = Math.max(
    Math.ceil(basePartSize / SLOT),
    Math.ceil(Math.ceil(totalSize / SLOT) / MAX_PARTS),
  );
  const partSize = slotsPerPart * SLOT;
  return { totalSize, partSize, partCount: Math.max(1, Math.ceil(totalSize / partSize)) };
}

/** Seals part `part` of a plan from the plaintext `file`. */
export async function sealPart(
  file: Blob,
  plan: PartPlan,
  part: PlannedPart,
  key: E2EKey,
  header: E2EHeader,
): Promise<Blob> {
  const slotsPerPart = plan.partSize / SLOT;
  const chunks = chunkCount(file.size);
  const first = (part.partNumber - 1) * slotsPerPart;
  const last = Math.min(chunks, first + slotsPerPart) - 1;
  const start = chunkPlainRange(first, file.size).start;
  const end = chunkPlainRange(last, file.size).end;
  const plain = new Uint8Array(await file.slice(start, end).arrayBuffer());
  return new Blob([await sealChunks(key, header, first, plain, last === chunks - 1)]);
}

/** The upload's secrets: fresh ones, replaced by the saved ones when a saved upload is resumed. */
class SecretsHolder {
  private secrets: E2ESecrets;
  private key: Promise<E2EKey> | null = null;

  constructor() {
    this.secrets = { key: toBase64Url(generateKeyBytes()), header: toBase64Url(createHeader().bytes) };
  }

  get current(): E2ESecrets {
    return this.secrets;
  }

  adopt(saved: E2ESecrets): void {
    if (saved.key === this.secrets.key && saved.header === this.secrets.header) return;
    this.secrets = saved;
    this.key = null;
  }

  rawKey(): Uint8Array {
    return fromBase64Url(this.secrets.key)!;
  }

  cryptoKey(): Promise<E2EKey> {
    this.key ??= importKey(this.rawKey());
    return this.key;
  }

  header(): E2EHeader {
    return parseHeader(fromBase64Url(this.secrets.header)!);
  }
}

export function createEncryptedUpload<R>(
  source: UploadSource,
  target: EncryptedTarget<R>,
  options: EngineOptions = {},
): Upload<R> {
  const { file } = source;
  const plan = encryptedPlan(file.size, options.basePartSize);
  const secrets = new SecretsHolder();
  const inner = target.multipart(source, async () =>
    sealMetadata(await secrets.cryptoKey(), {
      name: source.name,
      type: file.type || "application/octet-stream",
    }),
  );
  if (!inner) throw new Error("This destination cannot take encrypted uploads");
  const unwrap = <T extends { ref: unknown }>(session: T) => ({
    ...session,
    ref: (session.ref as EncryptedRef).inner,
  });
  const backend: MultipartBackend<EncryptedRef, R> = {
    async init(p, signal) {
      const started = await inner.init(p, signal);
      return {
        ...started,
        session: { ...started.session, ref: { inner: started.session.ref, e2e: secrets.current } },
      };
    },
    async resume(session, signal) {
      // A saved upload: its parts were sealed with its own key and header.
      secrets.adopt(session.ref.e2e);
      return inner.resume(unwrap(session), signal);
    },
    async complete(session, parts, signal) {
      const result = await inner.complete(unwrap(session), parts, signal);
      return target.withKey(result, source, await keyFragment(secrets.rawKey(), target.password || null));
    },
    abort: (session) => inner.abort(unwrap(session)),
  };
  return new MultipartUploader<EncryptedRef, R>({
    file,
    plan,
    backend,
    sealPart: async (part) => sealPart(file, plan, part, await secrets.cryptoKey(), secrets.header()),
    transport: options.transport ?? xhrPartTransport,
    store: options.store ?? resumeStore(),
    // Not the plain upload's record: the same file sent in clear is another upload.
    storeKey: resumeKey(`${target.scope}|e2e`, {
      name: source.name,
      size: file.size,
      lastModified: file.lastModified,
    }),
  });
}
