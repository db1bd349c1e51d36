/**
 * The ClipShare end-to-end encryption stream format (version 1), shared by
 * encrypted pastes, file contents and the metadata record of encrypted files.
 * WebCrypto only, so it runs the same in the browser, the service worker and Node.
 *
 * Layout: a 16-byte header, then sealed chunks. The stream is cut into slots of
 * `chunkSize` bytes as if the header were the first 16 bytes of the plaintext:
 * chunk 0 holds `chunkSize - 16` plaintext bytes, every later chunk `chunkSize`
 * (the last one fewer). Each chunk is sealed with AES-256-GCM (16-byte tag), so
 * every sealed slot is exactly `chunkSize + 16` bytes and encrypted sizes, part
 * boundaries and byte ranges are plain arithmetic.
 *
 * Header: "CSEC" | version (1) | chunk size (uint32 big-endian) | nonce prefix (7 random bytes).
 * Nonce of chunk i: nonce prefix | i (uint32 big-endian) | 1 for the last chunk, else 0.
 * The whole header is the additional authenticated data of every chunk.
 */

export const E2E_VERSION = 1;
export const E2E_HEADER_BYTES = 16;
export const E2E_TAG_BYTES = 16;
const MAGIC = [0x43, 0x53, 0x45, 0x43]; // "CSEC"
const PREFIX_BYTES = 7;
/**
 * 64 KiB: small enough that a decrypting reader holds little and a byte range
 * costs at most one extra 64 KiB on each side, large enough that the 16-byte
 * tag is 0.02 % overhead and WebCrypto is called only 16 times per MiB.
 */
export const E2E_CHUNK_SIZE = 64 * 1024;
/** The largest chunk size a reader accepts (a header cannot make it allocate more). */
const MAX_CHUNK_SIZE = 16 * 1024 * 1024;
/** The 32-bit chunk index in the nonce bounds a stream to 2^32 chunks. */
const MAX_CHUNKS = 2 ** 32;

export type E2EKey = Awaited<ReturnType<Subtle["importKey"]>>;
type Subtle = typeof globalThis.crypto.subtle;
export type Bytes = Uint8Array<ArrayBuffer>;

export type E2EErrorCode = "bad_header" | "bad_key" | "tampered" | "truncated" | "wrong_password";

/** Why encrypted data could not be opened; `code` lets the UI say it in the visitor's language. */
export class E2EError extends Error {
  constructor(
    readonly code: E2EErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "E2EError";
  }
}

export interface E2EHeader {
  bytes: Bytes;
  chunkSize: number;
  noncePrefix: Bytes;
}

const subtle = () => globalThis.crypto.subtle;

export function randomBytes(length: number): Bytes {
  return globalThis.crypto.getRandomValues(new Uint8Array(length));
}

/** A fresh header; `noncePrefix` only for fixed test vectors. */
export function createHeader(chunkSize = E2E_CHUNK_SIZE, noncePrefix = randomBytes(PREFIX_BYTES)): E2EHeader {
  if (noncePrefix.length !== PREFIX_BYTES) throw new RangeError("The nonce prefix is 7 bytes");
  if (chunkSize <= E2E_HEADER_BYTES || chunkSize > MAX_CHUNK_SIZE) throw new RangeError("Bad chunk size");
  const bytes = new Uint8Array(E2E_HEADER_BYTES);
  bytes.set(MAGIC, 0);
  bytes[4] = E2E_VERSION;
  new DataView(bytes.buffer).setUint32(5, chunkSize);
  bytes.set(noncePrefix, 9);
  return { bytes, chunkSize, noncePrefix: bytes.slice(9) };
}

export function parseHeader(bytes: Uint8Array): E2EHeader {
  if (bytes.length < E2E_HEADER_BYTES || MAGIC.some((b, i) => bytes[i] !== b)) {
    throw new E2EError("bad_header", "This is not ClipShare encrypted data");
  }
  if (bytes[4] !== E2E_VERSION) {
    throw new E2EError("bad_header", `Unsupported encryption format version ${bytes[4]}`);
  }
  const header = bytes.slice(0, E2E_HEADER_BYTES);
  const chunkSize = new DataView(header.buffer).getUint32(5);
  if (chunkSize <= E2E_HEADER_BYTES || chunkSize > MAX_CHUNK_SIZE) {
    throw new E2EError("bad_header", "The encrypted data names an impossible chunk size");
  }
  return { bytes: header, chunkSize, noncePrefix: header.slice(9) };
}

// ---- sizes and ranges --------------------------------------------------------

/** How many chunks a plaintext of `plainSize` bytes is cut into (at least one, maybe empty). */
export function chunkCount(plainSize: number, chunkSize = E2E_CHUNK_SIZE): number {
  return Math.max(1, Math.ceil((plainSize + E2E_HEADER_BYTES) / chunkSize));
}

/** Size of the encrypted stream of a `plainSize`-byte plaintext. */
export function encryptedSize(plainSize: number, chunkSize = E2E_CHUNK_SIZE): number {
  return plainSize + E2E_HEADER_BYTES + E2E_TAG_BYTES * chunkCount(plainSize, chunkSize);
}

/** The plaintext size behind an encrypted stream of `size` bytes, or null when no plaintext gives that size. */
export function plainSizeOf(size: number, chunkSize = E2E_CHUNK_SIZE): number | null {
  const chunks = Math.max(1, Math.ceil(size / (chunkSize + E2E_TAG_BYTES)));
  const plain = size - E2E_HEADER_BYTES - E2E_TAG_BYTES * chunks;
  return plain >= 0 && encryptedSize(plain, chunkSize) === size ? plain : null;
}

/** Plaintext bytes [start, end) of chunk `index`. */
export function chunkPlainRange(index: number, plainSize: number, chunkSize = E2E_CHUNK_SIZE) {
  const start = Math.max(0, index * chunkSize - E2E_HEADER_BYTES);
  return { start, end: Math.min(plainSize, (index + 1) * chunkSize - E2E_HEADER_BYTES) };
}

/** Encrypted bytes [start, end) of sealed chunk `index` (chunk 0 starts after the header). */
export function chunkCipherRange(index: number, encSize: number, chunkSize = E2E_CHUNK_SIZE) {
  const slot = chunkSize + E2E_TAG_BYTES;
  const start = index === 0 ? E2E_HEADER_BYTES : index * slot;
  return { start, end: Math.min(encSize, (index + 1) * slot) };
}

/**
 * Which chunks hold plaintext bytes [start, end), where they lie in the
 * encrypted stream, and how many decrypted bytes to skip to reach `start`.
 */
export function plainRangeToChunks(
  start: number,
  end: number,
  plainSize: number,
  chunkSize = E2E_CHUNK_SIZE,
) {
  const last = chunkCount(plainSize, chunkSize) - 1;
  const firstChunk = Math.min(last, Math.floor((start + E2E_HEADER_BYTES) / chunkSize));
  const lastChunk = Math.min(last, Math.floor((Math.max(start, end - 1) + E2E_HEADER_BYTES) / chunkSize));
  const encSize = encryptedSize(plainSize, chunkSize);
  return {
    firstChunk,
    lastChunk,
    cipherStart: chunkCipherRange(firstChunk, encSize, chunkSize).start,
    cipherEnd: chunkCipherRange(lastChunk, encSize, chunkSize).end,
    skip: start - chunkPlainRange(firstChunk, plainSize, chunkSize).start,
  };
}

// ---- sealing ---------------------------------------------------------------------

function nonceFor(header: E2EHeader, index: number, final: boolean): Bytes {
  if (!Number.isInteger(index) || index < 0 || index >= MAX_CHUNKS)
    throw new RangeError("Chunk index out of range");
  const nonce = new Uint8Array(12);
  nonce.set(header.noncePrefix, 0);
  new DataView(nonce.buffer).setUint32(7, index);
  nonce[11] = final ? 1 : 0;
  return nonce;
}

export async function sealChunk(
  key: E2EKey,
  header: E2EHeader,
  index: number,
  final: boolean,
  plain: Uint8Array,
): Promise<Bytes> {
  const iv = nonceFor(header, index, final);
  return new Uint8Array(
    await subtle().encrypt({ name: "AES-GCM", iv, additionalData: header.bytes }, key, plain as Bytes),
  );
}

export async function openChunk(
  key: E2EKey,
  header: E2EHeader,
  index: number,
  final: boolean,
  sealed: Uint8Array,
): Promise<Bytes> {
  if (sealed.length < E2E_TAG_BYTES) throw new E2EError("truncated", "The encrypted data is cut short");
  const iv = nonceFor(header, index, final);
  try {
    return new Uint8Array(
      await subtle().decrypt({ name: "AES-GCM", iv, additionalData: header.bytes }, key, sealed as Bytes),
    );
  } catch {
    throw new E2EError(
      "tampered",
      "The encrypted data cannot be opened: wrong key, or it was changed, cut short or reordered",
    );
  }
}

/**
 * Seals chunks `firstChunk`.. of a stream from their plaintext (which must start
 * at `chunkPlainRange(firstChunk).start`), the header in front when `firstChunk`
 * is 0, the last chunk marked final when `endsStream`. An upload part is one call.
 */
export async function sealChunks(
  key: E2EKey,
  header: E2EHeader,
  firstChunk: number,
  plain: Uint8Array,
  endsStream: boolean,
): Promise<Bytes> {
  const { chunkSize } = header;
  const pieces: Uint8Array[] = firstChunk === 0 ? [header.bytes] : [];
  let offset = 0;
  let index = firstChunk;
  do {
    const take = index === 0 ? chunkSize - E2E_HEADER_BYTES : chunkSize;
    const slice = plain.subarray(offset, offset + take);
    offset += slice.length;
    const final = endsStream && offset >= plain.length;
    if (!final && slice.length < take) throw new RangeError("Only the last chunk of a stream may be short");
    pieces.push(await sealChunk(key, header, index, final, slice));
    index++;
  } while (offset < plain.length);
  return concatBytes(pieces);
}

export function concatBytes(pieces: readonly Uint8Array[]): Bytes {
  const out = new Uint8Array(pieces.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of pieces) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
