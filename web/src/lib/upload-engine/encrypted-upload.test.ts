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

describe("encrypted upload resumed in a new page", () => {
  it("adopts the saved key and header, sends only the missing parts, and the stored parts open with the link's key", async () => {
    const { createEncryptedUpload } = await import("./encrypted-upload");
    const { memoryBackend, ResumeStore } = await import("./resume-store");
    const { readFragment, importKey: importRaw } = await import("@clipshare/shared");
    const plain = Uint8Array.from({ length: 6 * SLOT }, (_, i) => (i * 13 + 1) & 0xff);
    const file = new File([plain], "secret.txt", { type: "text/plain", lastModified: 1 });
    const store = new ResumeStore(memoryBackend());
    const stored = new Map<number, Uint8Array>();
    const metas: string[] = [];
    let inits = 0;
    const backend = {
      async init(plan: { partCount: number; partSize: number; totalSize: number }) {
        inits++;
        return {
          session: { uploadId: "u1", ref: { fileId: "f1" }, ...plan },
          urls: Array.from({ length: plan.partCount }, (_, i) => ({
            partNumber: i + 1,
            url: `part/${i + 1}`,
          })),
        };
      },
      async resume(session: { partCount: number }) {
        return {
          parts: [...stored.entries()].map(([partNumber, b]) => ({
            partNumber,
            etag: `e${partNumber}`,
            size: b.length,
          })),
          urls: Array.from({ length: session.partCount }, (_, i) => ({
            partNumber: i + 1,
            url: `part/${i + 1}`,
          })),
        };
      },
      async complete() {
        return { url: "/file/abc" };
      },
      async abort() {},
    };
    const sentParts: number[] = [];
    const transport = (limit: number) => {
      // Parts are sealed and sent in parallel, so which ones arrive first is not fixed;
      // the count is claimed before the first await so no more than `limit` get through.
      let accepted = 0;
      return {
        async put({ url, body }: { url: string; body: Blob }) {
          const part = Number(url.split("/").pop());
          if (accepted >= limit) return new Promise<never>(() => undefined);
          accepted++;
          sentParts.push(part);
          stored.set(part, new Uint8Array(await body.arrayBuffer()));
          return { status: 200, etag: `"e${part}"` };
        },
      };
    };
    let fragment = "";
    const target = {
      scope: "test",
      password: "",
      multipart: (_s: unknown, sealedMeta: () => Promise<string>) => {
        void sealedMeta().then((m) => metas.push(m));
        return backend;
      },
      withKey: (result: { url: string }, _s: unknown, f: string) => {
        fragment = f;
        return { url: `${result.url}#${f}` };
      },
    };
    const engine = (limit: number) => ({ store, transport: transport(limit), basePartSize: SLOT });

    // First page: two of the parts arrive, then the page goes away.
    const first = createEncryptedUpload({ file, name: file.name }, target, engine(2));
    first.start();
    await expect.poll(() => stored.size).toBe(2);
    await new Promise((r) => setTimeout(r, 20));
    first.pause();
    const storedByFirst = [...stored.keys()];
    expect(storedByFirst).toHaveLength(2);

    // A new page: fresh secrets at first, the saved ones once the upload is resumed.
    sentParts.length = 0;
    const second = createEncryptedUpload({ file, name: file.name }, target, engine(99));
    second.start();
    await expect.poll(() => second.state).toBe("completed");
    expect(inits).toBe(1);
    const count = encryptedPlan(plain.length, SLOT).partCount;
    const all = Array.from({ length: count }, (_, i) => i + 1);
    expect(sentParts.sort((a, b) => a - b)).toEqual(all.filter((n) => !storedByFirst.includes(n)));

    const link = readFragment(fragment);
    if (link.kind !== "key") throw new Error("expected a key in the link");
    const stream = concatBytes(all.map((n) => stored.get(n)!));
    const opened = await decryptBytes(await importRaw(link.raw), stream);
    expect(Buffer.from(opened).equals(Buffer.from(plain))).toBe(true);
  });
});
