import { createCipheriv } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  chunkCount,
  concatBytes,
  decryptBytes,
  decryptRange,
  decryptStream,
  E2E_CHUNK_SIZE,
  E2E_HEADER_BYTES,
  E2EError,
  encryptBytes,
  encryptedSize,
  generateKeyBytes,
  importKey,
  keyFragment,
  openMetadata,
  parseHeader,
  plainRangeToChunks,
  plainSizeOf,
  readFragment,
  sealChunks,
  sealMetadata,
  unwrapKey,
} from "./index";

const C = E2E_CHUNK_SIZE;
const SLOT = C + 16;
const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");
const fromHex = (h: string) => new Uint8Array(Buffer.from(h, "hex"));
const pattern = (n: number) => Uint8Array.from({ length: n }, (_, i) => (i * 31 + (i >> 8)) & 0xff);
const fixedKeyBytes = Uint8Array.from({ length: 32 }, (_, i) => i);
const prefix = fromHex("a0a1a2a3a4a5a6");

async function freshKey() {
  return importKey(generateKeyBytes());
}

async function expectFailure(promise: Promise<unknown>, code: string) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(E2EError);
  expect((error as E2EError).code).toBe(code);
}

describe("e2e format: round trip and sizes", () => {
  for (const size of [0, 1, C - E2E_HEADER_BYTES - 1, C - E2E_HEADER_BYTES, C - 1, C, C + 1, 3 * C + 12345]) {
    it(`round-trips ${size} bytes and predicts the encrypted size`, async () => {
      const key = await freshKey();
      const plain = pattern(size);
      const sealed = await encryptBytes(key, plain);
      expect(sealed.length).toBe(encryptedSize(size));
      expect(plainSizeOf(sealed.length)).toBe(size);
      expect(hex(await decryptBytes(key, sealed))).toBe(hex(plain));
    });
  }

  it("decrypts as a stream fed in odd-sized pieces", async () => {
    const key = await freshKey();
    const plain = pattern(5 * C + 77);
    const sealed = await encryptBytes(key, plain);
    const pieces: Uint8Array[] = [];
    for (let at = 0; at < sealed.length; at += 9999) pieces.push(sealed.slice(at, at + 9999));
    const out = new ReadableStream<Uint8Array>({
      start(c) {
        for (const p of pieces) c.enqueue(p);
        c.close();
      },
    }).pipeThrough(decryptStream(key));
    const got: Uint8Array[] = [];
    for await (const p of out) got.push(p);
    expect(hex(concatBytes(got))).toBe(hex(plain));
  });

  it("seals parts independently: parts of whole chunks concatenate to the stream of the whole", async () => {
    const key = await freshKey();
    const plain = pattern(4 * C + 5);
    const header = parseHeader((await encryptBytes(key, new Uint8Array(0))).slice(0, 16));
    const firstPart = plain.subarray(0, 2 * C - E2E_HEADER_BYTES); // chunks 0 and 1
    const secondPart = plain.subarray(2 * C - E2E_HEADER_BYTES); // chunks 2..4, the end
    const stream = concatBytes([
      await sealChunks(key, header, 0, firstPart, false),
      await sealChunks(key, header, 2, secondPart, true),
    ]);
    expect(stream.length).toBe(encryptedSize(plain.length));
    expect(hex(await decryptBytes(key, stream))).toBe(hex(plain));
  });

  it("maps a plaintext byte range to the chunks that hold it", () => {
    const size = 10 * C;
    expect(chunkCount(size)).toBe(11);
    const range = plainRangeToChunks(C, 2 * C, size);
    expect(range.firstChunk).toBe(1);
    expect(range.lastChunk).toBe(2);
    expect(range.cipherStart).toBe(SLOT);
    expect(range.cipherEnd).toBe(3 * SLOT);
    expect(range.skip).toBe(E2E_HEADER_BYTES);
    expect(plainRangeToChunks(0, 1, size)).toMatchObject({ firstChunk: 0, cipherStart: 16, skip: 0 });
    expect(plainSizeOf(10)).toBeNull(); // shorter than header and tag
    expect(plainSizeOf(SLOT + 5)).toBeNull(); // a last chunk too short for its tag
  });
});

describe("e2e format: every change is detected", () => {
  const setup = async () => {
    const key = await freshKey();
    const plain = pattern(3 * C + 100);
    return { key, plain, sealed: await encryptBytes(key, plain) };
  };
  const flip = (data: Uint8Array, at: number) => {
    const copy = data.slice();
    copy[at]! ^= 0x01;
    return copy;
  };

  it("refuses a flipped bit in the header, a chunk body and a tag", async () => {
    const { key, sealed } = await setup();
    await expectFailure(decryptBytes(key, flip(sealed, 12)), "tampered"); // nonce prefix
    await expectFailure(decryptBytes(key, flip(sealed, 0)), "bad_header"); // magic
    await expectFailure(decryptBytes(key, flip(sealed, SLOT + 5)), "tampered"); // chunk 1 body
    await expectFailure(decryptBytes(key, flip(sealed, 2 * SLOT - 1)), "tampered"); // chunk 1 tag
  });

  it("refuses a stream missing its last chunk, or cut inside a chunk", async () => {
    const { key, sealed } = await setup();
    await expectFailure(decryptBytes(key, sealed.slice(0, 3 * SLOT)), "tampered");
    await expectFailure(decryptBytes(key, sealed.slice(0, 2 * SLOT + 100)), "tampered");
    await expectFailure(decryptBytes(key, sealed.slice(0, 10)), "truncated");
  });

  it("refuses swapped chunks, an appended chunk and chunks from another file under the same key", async () => {
    const { key, sealed } = await setup();
    const swapped = concatBytes([
      sealed.slice(0, SLOT),
      sealed.slice(2 * SLOT, 3 * SLOT),
      sealed.slice(SLOT, 2 * SLOT),
      sealed.slice(3 * SLOT),
    ]);
    await expectFailure(decryptBytes(key, swapped), "tampered");
    await expectFailure(decryptBytes(key, concatBytes([sealed, sealed.slice(SLOT, 2 * SLOT)])), "tampered");
    const other = await encryptBytes(key, pattern(3 * C + 100));
    const mixed = concatBytes([sealed.slice(0, SLOT), other.slice(SLOT, 2 * SLOT), sealed.slice(2 * SLOT)]);
    await expectFailure(decryptBytes(key, mixed), "tampered");
  });

  it("refuses the wrong key", async () => {
    const { sealed } = await setup();
    await expectFailure(decryptBytes(await freshKey(), sealed), "tampered");
  });
});

describe("e2e keys", () => {
  it("carries the key in the fragment, or only wrapped with the password", async () => {
    const raw = generateKeyBytes();
    const plainLink = readFragment(`#${await keyFragment(raw)}`);
    expect(plainLink.kind).toBe("key");
    expect(plainLink.kind === "key" && hex(plainLink.raw)).toBe(hex(raw));

    const wrapped = await keyFragment(raw, "correct horse", 1000);
    expect(wrapped).not.toContain(Buffer.from(raw).toString("base64url"));
    const link = readFragment(wrapped);
    if (link.kind !== "password") throw new Error("expected a wrapped key");
    expect(hex(await unwrapKey(link.blob, "correct horse"))).toBe(hex(raw));
    await expectFailure(unwrapKey(link.blob, "wrong horse"), "wrong_password");
    expect(readFragment("#k.tooShort").kind).toBe("none");
    expect(readFragment("").kind).toBe("none");
  });

  it("wraps with 600,000 PBKDF2 iterations by default", async () => {
    const link = readFragment(await keyFragment(generateKeyBytes(), "pw"));
    if (link.kind !== "password") throw new Error("expected a wrapped key");
    expect(new DataView(link.blob.buffer).getUint32(0)).toBe(600_000);
  });

  it("seals the file name and type in a metadata record", async () => {
    const key = await freshKey();
    const record = await sealMetadata(key, { name: "Quarterly report.pdf", type: "application/pdf" });
    expect(record).not.toContain("report");
    expect(await openMetadata(key, record)).toEqual({
      name: "Quarterly report.pdf",
      type: "application/pdf",
    });
    await expect(openMetadata(await freshKey(), record)).rejects.toBeInstanceOf(E2EError);
  });
});

describe("e2e test vectors (listed in docs/encryption.md)", () => {
  const vectors = [
    {
      name: '"ClipShare", 64 KiB chunks',
      plain: "ClipShare",
      chunkSize: C,
      sealed: "435345430100010000a0a1a2a3a4a5a6340d206eeb6e81b266123efeb4c76f095b7796f12dcf092c54",
    },
    {
      name: "empty, 64 KiB chunks",
      plain: "",
      chunkSize: C,
      sealed: "435345430100010000a0a1a2a3a4a5a61b00ed5395b339ef6fc09c8bd0b46f8c",
    },
    {
      name: "two chunks of a 32-byte chunk size",
      plain: "end-to-end encrypted, in chunks",
      chunkSize: 32,
      sealed:
        "435345430100000020a0a1a2a3a4a5a66fbf7884e23b68580247e4e5f76324121e2486d34e4663a2d9cc75ec946186279972a58d2c0af251943c89c23117da32a7d23178e05241bb96f42ec8b46f02",
    },
  ];
  for (const v of vectors) {
    it(`seals ${v.name} to the listed bytes and opens them again`, async () => {
      const key = await importKey(fixedKeyBytes);
      const plain = new TextEncoder().encode(v.plain);
      expect(hex(await encryptBytes(key, plain, { chunkSize: v.chunkSize, noncePrefix: prefix }))).toBe(
        v.sealed,
      );
      expect(new TextDecoder().decode(await decryptBytes(key, fromHex(v.sealed)))).toBe(v.plain);
    });
  }

  it("matches an independent AES-256-GCM with the documented nonce rule", () => {
    // Two chunks of 32-byte slots: chunk 0 holds 16 bytes, chunk 1 (final) the rest.
    const plain = Buffer.from("end-to-end encrypted, in chunks");
    const header = fromHex("435345430100000020a0a1a2a3a4a5a6");
    const seal = (index: number, final: boolean, part: Buffer) => {
      const nonce = Buffer.concat([Buffer.from(prefix), Buffer.alloc(4), Buffer.from([final ? 1 : 0])]);
      nonce.writeUInt32BE(index, 7);
      const cipher = createCipheriv("aes-256-gcm", fixedKeyBytes, nonce).setAAD(header);
      return Buffer.concat([cipher.update(part), cipher.final(), cipher.getAuthTag()]);
    };
    const expected = Buffer.concat([
      header,
      seal(0, false, plain.subarray(0, 16)),
      seal(1, true, plain.subarray(16)),
    ]);
    expect(expected.toString("hex")).toBe(vectors[2]!.sealed);
  });
});

describe("e2e format: byte ranges", () => {
  /** Runs encrypted bytes through a range's decryptor in pieces of `step` bytes. */
  async function rangeOf(
    key: Awaited<ReturnType<typeof freshKey>>,
    sealed: Uint8Array,
    plainSize: number,
    start: number,
    end: number,
    step = 7777,
    change?: (cipher: Uint8Array) => Uint8Array,
  ) {
    const header = parseHeader(sealed.subarray(0, E2E_HEADER_BYTES));
    const range = decryptRange(key, header, plainSize, start, end);
    let cipher: Uint8Array = sealed.slice(range.cipherStart, range.cipherEnd);
    if (change) cipher = change(cipher);
    const out = new ReadableStream<Uint8Array>({
      start(c) {
        for (let at = 0; at < cipher.length; at += step) c.enqueue(cipher.slice(at, at + step));
        c.close();
      },
    }).pipeThrough(range.stream);
    const got: Uint8Array[] = [];
    for await (const p of out) got.push(p);
    return { bytes: concatBytes(got), cipherBytes: range.cipherEnd - range.cipherStart };
  }

  it("opens any range, fetching only the chunks that hold it", async () => {
    const key = await freshKey();
    const plain = pattern(5 * C + 77);
    const sealed = await encryptBytes(key, plain);
    const n = plain.length;
    const cases: [number, number][] = [
      [0, 1], // the first byte, in chunk 0 after the header
      [0, n], // the whole file
      [C - E2E_HEADER_BYTES - 1, C - E2E_HEADER_BYTES + 1], // across the chunk 0/1 boundary
      [2 * C, 2 * C + 10], // inside one middle chunk
      [C + 5, 4 * C - 3], // several chunks
      [n - 1, n], // the last byte, in the stream's final chunk
      [5 * C - E2E_HEADER_BYTES, n], // exactly the final chunk
    ];
    for (const [start, end] of cases) {
      const { bytes, cipherBytes } = await rangeOf(key, sealed, n, start, end);
      expect(hex(bytes), `bytes ${start}-${end - 1}`).toBe(hex(plain.subarray(start, end)));
      const chunks = plainRangeToChunks(start, end, n);
      expect(cipherBytes).toBeLessThanOrEqual((chunks.lastChunk - chunks.firstChunk + 1) * SLOT);
    }
    // One byte costs one chunk, not the file.
    expect((await rangeOf(key, sealed, n, 2 * C, 2 * C + 1)).cipherBytes).toBe(SLOT);
  });

  it("refuses a changed chunk, a cut range and a range of another file, like a whole download", async () => {
    const key = await freshKey();
    const plain = pattern(3 * C + 100);
    const sealed = await encryptBytes(key, plain);
    const n = plain.length;
    const flipped = (c: Uint8Array) => {
      const copy = c.slice();
      copy[copy.length >> 1]! ^= 1;
      return copy;
    };
    await expectFailure(rangeOf(key, sealed, n, C, 2 * C, 7777, flipped), "tampered");
    await expectFailure(
      rangeOf(key, sealed, n, C, 2 * C, 7777, (c) => c.slice(0, c.length - 1)),
      "truncated",
    );
    // A size that makes a middle chunk the final one (the file claimed shorter) does not open.
    await expectFailure(rangeOf(key, sealed, n - C, 2 * C, 2 * C + 50), "tampered");
    // A size that claims more chunks than there are finds the range cut short.
    await expectFailure(rangeOf(key, sealed, n + C, 3 * C, 3 * C + 50), "truncated");
    const other = await encryptBytes(key, pattern(n));
    const header = parseHeader(sealed.subarray(0, E2E_HEADER_BYTES));
    const range = decryptRange(key, header, n, C, C + 10);
    const writer = range.stream.writable.getWriter();
    const closed = writer.write(other.slice(range.cipherStart, range.cipherEnd)).then(() => writer.close());
    const read = new Response(range.stream.readable).arrayBuffer();
    await expectFailure(Promise.all([closed, read]), "tampered");
    expect(() => decryptRange(key, header, n, 5, 5)).toThrow(RangeError);
    expect(() => decryptRange(key, header, n, 0, n + 1)).toThrow(RangeError);
  });
});
