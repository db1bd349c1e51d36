import { IDBFactory, IDBKeyRange } from "fake-indexeddb";
import { describe, expect, it } from "vitest";
import { indexedDbBackend, memoryBackend, ResumeStore, resumeKey } from "./resume-store";

const session = { uploadId: "u1", ref: { fileId: "f" }, partSize: 5, partCount: 3, totalSize: 12 };

describe("ResumeStore", () => {
  it("keys a file by name, size, last-modified and destination", () => {
    const file = { name: "a.bin", size: 12, lastModified: 1000 };
    expect(resumeKey("share:1", file)).toBe(resumeKey("share:1", { ...file }));
    expect(resumeKey("share:1", file)).not.toBe(resumeKey("share:2", file));
    expect(resumeKey("share:1", file)).not.toBe(resumeKey("share:1", { ...file, lastModified: 1001 }));
    expect(resumeKey("share:1", file)).not.toBe(resumeKey("share:1", { ...file, size: 13 }));
  });

  it("keeps saved progress for 24 hours and discards it after", async () => {
    let now = 0;
    const backend = memoryBackend();
    const store = new ResumeStore(backend, () => now);
    await store.save("k", session, [{ partNumber: 1, etag: "e1", size: 5 }]);
    now = 24 * 3600 * 1000;
    expect(await store.load("k")).toMatchObject({ session, parts: [{ partNumber: 1, etag: "e1" }] });
    now += 1;
    expect(await store.load("k")).toBeNull();
    expect(await backend.entries()).toEqual([]);
  });

  it.each([
    ["memory", () => memoryBackend()],
    ["IndexedDB", () => indexedDbBackend({ indexedDB: new IDBFactory(), IDBKeyRange })],
  ])("prune drops expired and unreadable records only (%s)", async (_name, backendOf) => {
    let now = 0;
    const backend = backendOf();
    const store = new ResumeStore(backend, () => now);
    await store.save("old", session, []);
    now = 20 * 3600 * 1000;
    await store.save("new", session, []);
    await backend.put("junk", { hello: 1 });
    now = 25 * 3600 * 1000;
    expect(await store.prune()).toBe(2);
    expect((await backend.entries()).map(([k]) => k)).toEqual(["new"]);
  });

  it("keeps saved progress in IndexedDB for the next page load", async () => {
    const indexedDB = new IDBFactory();
    const parts = [{ partNumber: 1, etag: "e1", size: 5 }];
    await new ResumeStore(indexedDbBackend({ indexedDB, IDBKeyRange })).save("k", session, parts);
    const reloaded = new ResumeStore(indexedDbBackend({ indexedDB, IDBKeyRange }));
    expect(await reloaded.load("k")).toMatchObject({ key: "k", session, parts });
    await reloaded.remove("k");
    expect(await reloaded.load("k")).toBeNull();
  });
});
