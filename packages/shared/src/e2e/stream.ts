/**
 * Whole-buffer and streaming encryption on top of the chunk format: pastes and
 * the metadata record are sealed in one go, downloads are opened as a stream
 * that never holds more than one chunk.
 */
import {
  type Bytes,
  chunkCipherRange,
  chunkCount,
  chunkPlainRange,
  concatBytes,
  createHeader,
  E2E_CHUNK_SIZE,
  E2E_HEADER_BYTES,
  E2E_TAG_BYTES,
  E2EError,
  type E2EHeader,
  type E2EKey,
  encryptedSize,
  openChunk,
  parseHeader,
  plainRangeToChunks,
  sealChunks,
} from "./format";

/** Encrypts a whole plaintext; `noncePrefix` only for fixed test vectors. */
export async function encryptBytes(
  key: E2EKey,
  plain: Uint8Array,
  options: { chunkSize?: number; noncePrefix?: Bytes } = {},
): Promise<Bytes> {
  const header = createHeader(options.chunkSize ?? E2E_CHUNK_SIZE, options.noncePrefix);
  return sealChunks(key, header, 0, plain, true);
}

/** Opens a whole encrypted stream; throws E2EError when anything is wrong with it. */
export async function decryptBytes(key: E2EKey, data: Uint8Array): Promise<Bytes> {
  const pieces: Uint8Array[] = [];
  const opener = chunkOpener(key);
  await opener.push(data, (p) => pieces.push(p));
  await opener.finish((p) => pieces.push(p));
  return concatBytes(pieces);
}

/**
 * A TransformStream from encrypted bytes to plaintext. A chunk's plaintext is
 * passed on only once its tag checked out; a stream that ends early or carries
 * extra bytes errors at its end (so a download is never reported complete).
 */
export function decryptStream(key: E2EKey): TransformStream<Uint8Array, Uint8Array> {
  const opener = chunkOpener(key);
  return new TransformStream({
    transform: (data, controller) => opener.push(data, (p) => controller.enqueue(p)),
    flush: (controller) => opener.finish((p) => controller.enqueue(p)),
  });
}

/** Collects sealed chunks from pieces of any size and opens each as soon as a later byte shows it is not the last. */
function chunkOpener(key: E2EKey) {
  let header: E2EHeader | null = null;
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  let index = 0;
  const take = (n: number) => {
    const all = pending.length === 1 ? pending[0]! : concatBytes(pending);
    const head = all.subarray(0, n);
    const rest = all.subarray(n);
    pending = rest.length ? [rest] : [];
    pendingBytes = rest.length;
    return head;
  };
  const sealedSize = () =>
    (index === 0 ? header!.chunkSize - E2E_HEADER_BYTES : header!.chunkSize) + E2E_TAG_BYTES;
  return {
    async push(data: Uint8Array, emit: (plain: Uint8Array) => void) {
      if (data.length === 0) return;
      pending.push(data);
      pendingBytes += data.length;
      if (!header) {
        if (pendingBytes < E2E_HEADER_BYTES) return;
        header = parseHeader(take(E2E_HEADER_BYTES));
      }
      // Strictly more than one sealed chunk buffered: the first one is not the last.
      while (pendingBytes > sealedSize()) {
        emit(await openChunk(key, header, index, false, take(sealedSize())));
        index++;
      }
    },
    async finish(emit: (plain: Uint8Array) => void) {
      if (!header) throw new E2EError("truncated", "The encrypted data is cut short");
      emit(await openChunk(key, header, index, true, take(pendingBytes)));
    },
  };
}

/**
 * Plaintext bytes [start, end) of a stream of `plainSize` plaintext bytes, for a
 * byte-range request (a video seeking): fetch the encrypted bytes [cipherStart,
 * cipherEnd) and pipe them through `stream`. Only the chunks that hold the range
 * are opened, each under its own index and the stream's last chunk as the last,
 * so bytes moved, changed or cut short fail here as they do in a whole download.
 * `header` is the stream's first 16 bytes, read once per file.
 */
export function decryptRange(
  key: E2EKey,
  header: E2EHeader,
  plainSize: number,
  start: number,
  end: number,
): { cipherStart: number; cipherEnd: number; stream: TransformStream<Uint8Array, Uint8Array> } {
  if (!(Number.isInteger(start) && Number.isInteger(end) && 0 <= start && start < end && end <= plainSize)) {
    throw new RangeError("Bad plaintext range");
  }
  const { chunkSize } = header;
  const range = plainRangeToChunks(start, end, plainSize, chunkSize);
  const encSize = encryptedSize(plainSize, chunkSize);
  const lastOfStream = chunkCount(plainSize, chunkSize) - 1;
  let index = range.firstChunk;
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  const sealedSize = (i: number) => {
    const { start: from, end: to } = chunkCipherRange(i, encSize, chunkSize);
    return to - from;
  };
  async function openReady(emit: (plain: Uint8Array) => void) {
    while (index <= range.lastChunk && pendingBytes >= sealedSize(index)) {
      const all = pending.length === 1 ? pending[0]! : concatBytes(pending);
      const size = sealedSize(index);
      const rest = all.subarray(size);
      pending = rest.length ? [rest] : [];
      pendingBytes = rest.length;
      const plain = await openChunk(key, header, index, index === lastOfStream, all.subarray(0, size));
      const at = chunkPlainRange(index, plainSize, chunkSize).start;
      const piece = plain.subarray(Math.max(0, start - at), Math.min(plain.length, end - at));
      if (piece.length) emit(piece);
      index++;
    }
  }
  return {
    cipherStart: range.cipherStart,
    cipherEnd: range.cipherEnd,
    stream: new TransformStream({
      async transform(data, controller) {
        pending.push(data);
        pendingBytes += data.length;
        await openReady((p) => controller.enqueue(p));
        if (index > range.lastChunk && pendingBytes > 0) {
          throw new E2EError("tampered", "The encrypted range is longer than the chunks it should hold");
        }
      },
      flush() {
        if (index <= range.lastChunk) throw new E2EError("truncated", "The encrypted data is cut short");
      },
    }),
  };
}
