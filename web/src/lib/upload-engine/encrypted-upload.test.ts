import {
  concatBytes,
  createHeader,
  decryptBytes,
  E2E_CHUNK_SIZE,
  E2E_TAG_BYTES,
  encryptedSize,
  generateKeyBytes,
  importKey,
} from "@clipshare/shared";
import { describe, expect, it } from "vitest";
import { encryptedPlan, sealPart } from "./encrypted-upload";
import { plannedParts } from "./part-plan";

const SLOT = E2E_CHUNK_SIZE + E2E_TAG_BYTES;
const MiB = 1024 * 1024;

describe("encrypted upload plan", () => {
  it("cuts the ciphertext into parts of whole sealed chunks, at least 5 MiB, at most 10,000", () => {
    const small = encryptedPlan(1000);
    expect(small.partCount).toBe(1);
    expect(small.totalSize).toBe(encryptedSize(1000));
    const big = encryptedPlan(300 * MiB);
    expect(big.partSize % SLOT).toBe(0);
    expect(big.partSize).toBeGreaterThanOrEqual(5 * MiB);
    expect(big.partSize - SLOT).toBeLessThan(5 * MiB);
    expect(big.partCount).toBe(Math.ceil(encryptedSize(300 * MiB) / big.partSize));
    const huge = encryptedPlan(200 * 1024 * MiB);
    expect(huge.partCount).toBeLessThanOrEqual(10_000);
    expect(huge.partSize % SLOT).toBe(0);
  });

  it("seals each part on its own; in order they are the stream of the whole file", async () => {
    const plain = Uint8Array.from({ length: 5 * SLOT + 123 }, (_, i) => (i * 7) & 0xff);
    const file = new Blob([plain]);
    const plan = encryptedPlan(plain.length, 2 * SLOT);
    expect(plan.partCount).toBe(3);
    const key = await importKey(generateKeyBytes());
    const header = createHeader();
    const parts = plannedParts(plan);
    // Sealed out of order, as parallel and resumed uploads do.
    const sealed = await Promise.all([...parts].reverse().map((p) => sealPart(file, plan, p, key, header)));
    sealed.reverse();
    for (const [i, part] of parts.entries()) expect(sealed[i]!.size).toBe(part.size);
    const stream = concatBytes(
      await Promise.all(sealed.map(async (b) => new Uint8Array(await b.arrayBuffer()))),
    );
    expect(Buffer.from(await decryptBytes(key, stream)).equals(Buffer.from(plain))).toBe(true);
  });
});
