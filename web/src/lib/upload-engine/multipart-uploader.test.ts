import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { TransferError, UploadEngineError } from "./errors";
import { type MultipartBackend, MultipartUploader, type PartTransport } from "./multipart-uploader";
import { planParts } from "./part-plan";
import { type MultipartSession, memoryBackend, ResumeStore, type StoredPart } from "./resume-store";

const PART = 10;
type Outcome = "ok" | "network" | "hang" | { status: number };

/** Storage that keeps the parts it received, behind a scripted network. */
function harness(options: { size?: number; script?: (part: number, attempt: number) => Outcome } = {}) {
  const size = options.size ?? 95;
  const file = new Blob([new Uint8Array(size).map((_, i) => i % 251)]);
  const stored = new Map<number, StoredPart>();
  const sent: number[] = [];
  const attempts = new Map<number, number>();
  let inFlight = 0;
  let maxInFlight = 0;
  const calls = {
    init: 0,
    resume: 0,
    complete: [] as Array<Array<{ partNumber: number; etag: string }>>,
    abort: 0,
  };
  let gone = false;

  const transport: PartTransport = {
    put({ url, body, signal, onProgress }) {
      const part = Number(url.split("/").pop());
      const attempt = (attempts.get(part) ?? 0) + 1;
      attempts.set(part, attempt);
      sent.push(part);
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      const outcome = options.script?.(part, attempt) ?? "ok";
      return new Promise((resolve, reject) => {
        const done = () => inFlight--;
        signal.addEventListener("abort", () => {
          done();
          reject(new TransferError("abort"));
        });
        if (outcome === "hang") return;
        setTimeout(() => {
          if (signal.aborted) return;
          done();
          if (outcome === "network") return reject(new TransferError("network"));
          if (typeof outcome === "object") return resolve({ status: outcome.status, etag: null });
          onProgress(body.size);
          stored.set(part, { partNumber: part, etag: `"etag-${part}"`, size: body.size });
          resolve({ status: 200, etag: `"etag-${part}"` });
        }, 10);
      });
    },
  };

  const urls = (count: number) =>
    Array.from({ length: count }, (_, i) => ({ partNumber: i + 1, url: `part/${i + 1}` }));
  const backend: MultipartBackend<{ id: string }, { id: string }> = {
    async init(plan) {
      calls.init++;
      gone = false;
      stored.clear();
      const session: MultipartSession<{ id: string }> = {
        uploadId: `up-${calls.init}`,
        ref: { id: "f1" },
        ...plan,
      };
      return { session, urls: urls(plan.partCount) };
    },
    async resume(session) {
      calls.resume++;
      if (gone) throw new UploadEngineError("uploadGone");
      return { parts: [...stored.values()], urls: urls(session.partCount) };
    },
    async complete(_session, parts) {
      calls.complete.push(parts);
      return { id: "f1" };
    },
    async abort() {
      calls.abort++;
      stored.clear();
      gone = true;
    },
  };
  let now = Date.parse("2026-01-01T00:00:00Z");
  const store = new ResumeStore(memoryBackend(), () => now);
  const make = () =>
    new MultipartUploader({
      file,
      plan: planParts(size, PART),
      backend,
      transport,
      store,
      storeKey: "k",
    });
  return {
    make,
    sent,
    stored,
    calls,
    store,
    get maxInFlight() {
      return maxInFlight;
    },
    setGone: () => {
      gone = true;
    },
    advanceDays: (days: number) => {
      now += days * 24 * 3600 * 1000;
    },
  };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("MultipartUploader", () => {
  it("sends every part, at most three at a time, and completes with the ETags unquoted", async () => {
    const h = harness();
    const up = h.make();
    expect(up.state).toBe("idle");
    expect(up.parts).toHaveLength(10);
    up.start();
    expect(up.state).toBe("uploading");
    await vi.advanceTimersByTimeAsync(200);
    expect(up.state).toBe("completed");
    expect(h.maxInFlight).toBe(3);
    expect(h.calls.complete).toHaveLength(1);
    expect(h.calls.complete[0]![0]).toEqual({ partNumber: 1, etag: "etag-1" });
    expect(h.calls.complete[0]!.map((p) => p.partNumber)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(up.snapshot()).toMatchObject({ loaded: 95, total: 95, result: { id: "f1" } });
    expect(up.parts[9]).toMatchObject({ size: 5, status: "completed" });
    // A finished upload leaves no saved progress.
    expect(await h.store.load("k")).toBeNull();
  });

  it("retries a part three times, waiting 1 s × the attempt number, then fails with the part's error", async () => {
    const h = harness({ size: 25, script: (part) => (part === 2 ? "network" : "ok") });
    const up = h.make();
    up.start();
    await vi.advanceTimersByTimeAsync(20);
    expect(h.sent.filter((p) => p === 2)).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(980); // the first retry waits 1 s after the failure at 10 ms
    expect(h.sent.filter((p) => p === 2)).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(30);
    expect(h.sent.filter((p) => p === 2)).toHaveLength(2);
    expect(up.parts[1]).toMatchObject({ retryCount: 2 }); // the retry failed too, the next is scheduled
    await vi.advanceTimersByTimeAsync(2000); // second retry after 2 s
    expect(h.sent.filter((p) => p === 2)).toHaveLength(3);
    await vi.advanceTimersByTimeAsync(3005); // third after 3 s
    expect(h.sent.filter((p) => p === 2)).toHaveLength(4);
    expect(up.state).toBe("uploading");
    await vi.advanceTimersByTimeAsync(100);
    expect(up.state).toBe("failed");
    expect(up.parts[1]!.status).toBe("failed");
    expect((up.snapshot().error as Error).message).toBe("network error");
    expect(h.calls.complete).toHaveLength(0);
  });

  it("a part that recovers within its retries completes the upload", async () => {
    const h = harness({
      size: 25,
      script: (part, attempt) => (part === 3 && attempt < 3 ? "network" : "ok"),
    });
    const up = h.make();
    up.start();
    await vi.advanceTimersByTimeAsync(4000);
    expect(up.state).toBe("completed");
    expect(h.sent.filter((p) => p === 3)).toHaveLength(3);
  });

  it("reports HTTP statuses, and a part silent for five minutes times out", async () => {
    const http = harness({ size: 25, script: (part) => (part === 1 ? { status: 503 } : "ok") });
    const a = http.make();
    a.start();
    await vi.advanceTimersByTimeAsync(10_000);
    expect((a.snapshot().error as Error).message).toBe("HTTP 503");

    const slow = harness({ size: 25, script: (part) => (part === 2 ? "hang" : "ok") });
    const b = slow.make();
    b.start();
    await vi.advanceTimersByTimeAsync(5 * 60_000 - 100);
    expect(b.state).toBe("uploading");
    expect(b.parts[1]!.retryCount).toBe(0);
    await vi.advanceTimersByTimeAsync(200);
    expect(b.parts[1]!.retryCount).toBe(1);
    await vi.advanceTimersByTimeAsync(4 * 5 * 60_000);
    expect(b.state).toBe("failed");
    expect((b.snapshot().error as Error).message).toBe("upload timeout");
  });

  it("retry after a failure sends only what is missing", async () => {
    let broken = true;
    const h = harness({ script: (part) => (part === 4 && broken ? { status: 500 } : "ok") });
    const up = h.make();
    up.start();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(up.state).toBe("failed");
    const before = h.sent.length;
    broken = false;
    up.retry();
    await vi.advanceTimersByTimeAsync(500);
    expect(up.state).toBe("completed");
    const again = h.sent.slice(before);
    expect(again).toContain(4);
    expect(new Set(again).size).toBe(again.length);
    expect(h.stored.size).toBe(10);
  });

  it("pause returns parts in flight to pending; resume only from paused, and it sends only missing parts", async () => {
    const h = harness();
    const up = h.make();
    expect(() => up.resume()).toThrow("can only resume a paused upload");
    up.start();
    await vi.advanceTimersByTimeAsync(15); // first three done, next three in flight
    up.pause();
    expect(up.state).toBe("paused");
    expect(up.parts.filter((p) => p.status === "uploading")).toHaveLength(0);
    expect(up.parts.filter((p) => p.status === "completed")).toHaveLength(3);
    expect(up.parts.filter((p) => p.status === "pending")).toHaveLength(7);
    expect(up.snapshot().loaded).toBe(30);
    await vi.advanceTimersByTimeAsync(1000);
    expect(up.state).toBe("paused");
    expect(h.calls.complete).toHaveLength(0);
    const before = h.sent.length;
    up.resume();
    expect(() => up.resume()).toThrow(UploadEngineError);
    await vi.advanceTimersByTimeAsync(500);
    expect(up.state).toBe("completed");
    expect(h.sent.slice(before).sort((a, b) => a - b)).toEqual([4, 5, 6, 7, 8, 9, 10]);
  });

  it("a new page with the same file resumes from the parts the storage holds", async () => {
    const h = harness();
    const first = h.make();
    first.start();
    await vi.advanceTimersByTimeAsync(25); // six parts stored
    first.pause(); // the page goes away
    expect(h.stored.size).toBe(6);

    const before = h.sent.length;
    const second = h.make();
    second.start();
    await vi.advanceTimersByTimeAsync(500);
    expect(second.state).toBe("completed");
    expect(h.calls.init).toBe(1);
    expect(second.snapshot().resumedParts).toBe(6);
    expect(h.sent.slice(before).sort((a, b) => a - b)).toEqual([7, 8, 9, 10]);
    expect(h.calls.complete[0]).toHaveLength(10);
  });

  it("saved progress older than 24 hours is discarded and the upload starts anew", async () => {
    const h = harness();
    const first = h.make();
    first.start();
    await vi.advanceTimersByTimeAsync(25);
    first.pause();
    h.advanceDays(1.01);
    const second = h.make();
    second.start();
    await vi.advanceTimersByTimeAsync(500);
    expect(second.state).toBe("completed");
    expect(h.calls.init).toBe(2);
    expect(h.calls.resume).toBe(0);
    expect(second.snapshot().resumedParts).toBe(0);
  });

  it("an upload the server no longer knows starts over", async () => {
    const h = harness();
    const first = h.make();
    first.start();
    await vi.advanceTimersByTimeAsync(25);
    first.pause();
    h.setGone();
    const second = h.make();
    second.start();
    await vi.advanceTimersByTimeAsync(500);
    expect(second.state).toBe("completed");
    expect(h.calls.init).toBe(2);
    expect(h.sent.filter((p) => p === 1)).toHaveLength(2);
  });

  it("abort stops the parts, aborts the server upload and forgets the saved progress", async () => {
    const h = harness();
    const up = h.make();
    up.start();
    await vi.advanceTimersByTimeAsync(15);
    expect(await h.store.load("k")).not.toBeNull();
    await up.abort();
    expect(up.state).toBe("aborted");
    expect(h.calls.abort).toBe(1);
    expect(await h.store.load("k")).toBeNull();
    await vi.advanceTimersByTimeAsync(1000);
    expect(up.state).toBe("aborted");
    expect(h.calls.complete).toHaveLength(0);
    expect(() => up.resume()).toThrow("can only resume a paused upload");
  });

  it("a part without a URL fails with 'upload info incomplete'", async () => {
    const h = harness({ size: 25 });
    const backend: MultipartBackend<null, null> = {
      init: async (plan) => ({
        session: { uploadId: "u", ref: null, ...plan },
        urls: [{ partNumber: 1, url: "part/1" }],
      }),
      resume: async () => ({ parts: [], urls: [] }),
      complete: async () => null,
      abort: async () => undefined,
    };
    const up = new MultipartUploader({
      file: new Blob([new Uint8Array(25)]),
      plan: planParts(25, PART),
      backend,
      transport: { put: async () => ({ status: 200, etag: "x" }) },
    });
    up.start();
    await vi.advanceTimersByTimeAsync(10);
    expect(up.state).toBe("failed");
    expect((up.snapshot().error as Error).message).toBe("upload info incomplete");
    expect(h.calls.init).toBe(0);
  });

  it("a part refused with 403 (expired URL) is retried with fresh URLs from the server", async () => {
    const h = harness({
      size: 25,
      script: (part, attempt) => (part === 2 && attempt === 1 ? { status: 403 } : "ok"),
    });
    const up = h.make();
    up.start();
    await vi.advanceTimersByTimeAsync(2000);
    expect(up.state).toBe("completed");
    expect(h.calls.resume).toBe(1);
    expect(h.sent.filter((p) => p === 2)).toHaveLength(2);
  });
});
