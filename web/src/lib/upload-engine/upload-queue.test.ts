import { describe, expect, it } from "vitest";
import {
  initialUploadQueue,
  isNetworkFailure,
  itemProgress,
  itemsToStart,
  progressPercent,
  queueSummary,
  remainingSeconds,
  transferSpeed,
  type UploadEvent,
  type UploadQueueState,
  uploadQueueReducer,
} from "./upload-queue";

const run = (events: UploadEvent[], state: UploadQueueState = initialUploadQueue) =>
  events.reduce(uploadQueueReducer, state);

const file = (id: string, size = 1000) => ({ id, name: `${id}.bin`, size, type: "application/octet-stream" });
const result = (id: string) => ({
  id,
  slug: `s-${id}`,
  filename: `${id}.bin`,
  size: 1000,
  url: `/file/s-${id}`,
  method: "presigned" as const,
});
const item = (s: UploadQueueState, id: string) => s.items.find((i) => i.id === id)!;

describe("upload queue state machine", () => {
  it("adds files as pending and ignores duplicates", () => {
    const s = run([
      { type: "add", files: [file("a"), file("b")] },
      { type: "add", files: [file("a")] },
    ]);
    expect(s.items.map((i) => [i.id, i.status, i.queued])).toEqual([
      ["a", "pending", false],
      ["b", "pending", false],
    ]);
  });

  it("pending → uploading → success, with progress on the way", () => {
    const s = run([
      { type: "add", files: [file("a", 1000)] },
      { type: "enqueueAll" },
      { type: "start", id: "a", at: 0 },
      { type: "progress", id: "a", loaded: 400, at: 1000 },
    ]);
    expect(item(s, "a")).toMatchObject({ status: "uploading", loaded: 400, attempts: 1, queued: false });
    expect(itemProgress(item(s, "a")).percent).toBe(40);
    const done = run([{ type: "succeed", id: "a", result: result("a") }], s);
    expect(item(done, "a")).toMatchObject({ status: "success", loaded: 1000, result: { slug: "s-a" } });
    expect(itemProgress(item(done, "a")).percent).toBe(100);
  });

  it("only starts queued pending items, and only into free slots", () => {
    let s = run([{ type: "add", files: [file("a"), file("b"), file("c")] }]);
    expect(itemsToStart(s, 2)).toEqual([]);
    s = run([{ type: "enqueueAll" }], s);
    expect(itemsToStart(s, 2)).toEqual(["a", "b"]);
    s = run([{ type: "start", id: "a", at: 0 }], s);
    expect(itemsToStart(s, 2)).toEqual(["b"]);
    s = run([{ type: "start", id: "b", at: 0 }], s);
    expect(itemsToStart(s, 2)).toEqual([]);
    s = run([{ type: "fail", id: "a", error: { scope: "upload", key: "network" } }], s);
    expect(itemsToStart(s, 2)).toEqual(["c"]);
  });

  it("cancel turns an upload into an error that can be retried; retry queues it again from zero", () => {
    let s = run([
      { type: "add", files: [file("a")] },
      { type: "enqueueAll" },
      { type: "start", id: "a", at: 0 },
      { type: "progress", id: "a", loaded: 500, at: 500 },
      { type: "cancel", id: "a" },
    ]);
    expect(item(s, "a")).toMatchObject({ status: "error", error: { scope: "upload", key: "cancelled" } });
    // The aborted request's own failure arriving later changes nothing.
    s = run([{ type: "fail", id: "a", error: { scope: "upload", key: "network" } }], s);
    expect(item(s, "a").error).toEqual({ scope: "upload", key: "cancelled" });
    s = run([{ type: "retry", id: "a" }], s);
    expect(item(s, "a")).toMatchObject({ status: "pending", queued: true, loaded: 0, error: null });
    s = run([{ type: "start", id: "a", at: 1000 }], s);
    expect(item(s, "a").attempts).toBe(2);
  });

  it("a file over the limit is rejected before it starts and may be retried (the limit may be raised)", () => {
    const rejected = run([
      { type: "add", files: [file("big", 10)] },
      { type: "reject", id: "big", error: { scope: "upload", key: "tooLargeLocal" } },
      { type: "enqueueAll" },
    ]);
    expect(item(rejected, "big")).toMatchObject({ status: "error", queued: false });
    expect(itemsToStart(rejected)).toEqual([]);
    const retried = run([{ type: "retry", id: "big" }], rejected);
    expect(item(retried, "big")).toMatchObject({ status: "pending", queued: true, error: null });
    expect(itemsToStart(retried)).toEqual(["big"]);
  });

  it("ignores events that do not fit the current state", () => {
    const s = run([{ type: "add", files: [file("a")] }]);
    expect(run([{ type: "progress", id: "a", loaded: 10, at: 1 }], s)).toBe(s);
    expect(run([{ type: "succeed", id: "a", result: result("a") }], s)).toBe(s);
    expect(run([{ type: "retry", id: "a" }], s)).toBe(s);
    expect(run([{ type: "cancel", id: "a" }], s)).toBe(s);
    expect(run([{ type: "start", id: "nope", at: 1 }], s)).toBe(s);
  });

  it("remove drops an item in any state; clearFinished drops the successful ones", () => {
    let s = run([
      { type: "add", files: [file("a"), file("b"), file("c")] },
      { type: "enqueueAll" },
      { type: "start", id: "a", at: 0 },
      { type: "succeed", id: "a", result: result("a") },
      { type: "remove", id: "b" },
    ]);
    expect(s.items.map((i) => i.id)).toEqual(["a", "c"]);
    s = run([{ type: "clearFinished" }], s);
    expect(s.items.map((i) => i.id)).toEqual(["c"]);
  });

  it("restart sets the progress of a fallback attempt back to zero", () => {
    const s = run([
      { type: "add", files: [file("a")] },
      { type: "enqueueAll" },
      { type: "start", id: "a", at: 0 },
      { type: "progress", id: "a", loaded: 900, at: 100 },
      { type: "restart", id: "a", at: 200 },
    ]);
    expect(item(s, "a")).toMatchObject({ status: "uploading", loaded: 0, samples: [{ at: 200, loaded: 0 }] });
  });

  it("summarizes the list; a custom slug applies only when one file waits", () => {
    let s = run([{ type: "add", files: [file("a")] }]);
    expect(queueSummary(s)).toMatchObject({ total: 1, waiting: 1, allowSlug: true, busy: false });
    s = run([{ type: "add", files: [file("b")] }], s);
    expect(queueSummary(s).allowSlug).toBe(false);
    s = run([{ type: "enqueueAll" }, { type: "start", id: "a", at: 0 }], s);
    expect(queueSummary(s)).toMatchObject({ uploading: 1, pending: 1, waiting: 0, busy: true });
  });
});

describe("progress and speed", () => {
  it("percent is whole, clamped, and an empty file is done once sent", () => {
    expect(progressPercent(0, 1000)).toBe(0);
    expect(progressPercent(999, 1000)).toBe(99);
    expect(progressPercent(1000, 1000)).toBe(100);
    expect(progressPercent(2000, 1000)).toBe(100);
    expect(progressPercent(0, 0)).toBe(0);
    expect(progressPercent(1, 0)).toBe(100);
  });

  it("speed averages the samples inside the window", () => {
    expect(transferSpeed([])).toBeNull();
    expect(transferSpeed([{ at: 0, loaded: 0 }])).toBeNull();
    expect(
      transferSpeed([
        { at: 0, loaded: 0 },
        { at: 100, loaded: 1000 },
      ]),
    ).toBeNull(); // too short to tell
    expect(
      transferSpeed([
        { at: 0, loaded: 0 },
        { at: 1000, loaded: 2048 },
      ]),
    ).toBe(2048);
    // The sample older than the window is ignored: (9000 - 5000) bytes over 2 s.
    expect(
      transferSpeed(
        [
          { at: 0, loaded: 0 },
          { at: 4000, loaded: 5000 },
          { at: 6000, loaded: 9000 },
        ],
        3000,
      ),
    ).toBe(2000);
  });

  it("progress events keep only the samples of the speed window", () => {
    const s = run([
      { type: "add", files: [file("a", 100_000)] },
      { type: "enqueueAll" },
      { type: "start", id: "a", at: 0 },
      { type: "progress", id: "a", loaded: 10_000, at: 1000 },
      { type: "progress", id: "a", loaded: 20_000, at: 5000 },
      { type: "progress", id: "a", loaded: 30_000, at: 6000 },
    ]);
    expect(item(s, "a").samples.map((x) => x.at)).toEqual([5000, 6000]);
    const { speed, remaining } = itemProgress(item(s, "a"));
    expect(speed).toBe(10_000);
    expect(remaining).toBe(7);
  });

  it("time left is unknown without a speed", () => {
    expect(remainingSeconds(10, 100, null)).toBeNull();
    expect(remainingSeconds(10, 100, 0)).toBeNull();
    expect(remainingSeconds(100, 100, 5)).toBeNull();
    expect(remainingSeconds(0, 100, 30)).toBe(4);
  });
});

describe("pause and resume", () => {
  it("pauses a running upload, queues it again on resume and keeps its bytes", () => {
    let s = run([
      { type: "add", files: [file("a"), file("b")] },
      { type: "enqueueAll" },
      { type: "start", id: "a", at: 0 },
      { type: "progress", id: "a", loaded: 400, at: 1000 },
    ]);
    s = run([{ type: "pause", id: "a" }], s);
    expect(item(s, "a")).toMatchObject({ status: "paused", loaded: 400 });
    // A paused upload frees its slot.
    expect(itemsToStart(s, 1)).toEqual(["b"]);
    expect(queueSummary(s)).toMatchObject({ paused: 1, busy: true });
    expect(run([{ type: "progress", id: "a", loaded: 500, at: 1100 }], s)).toBe(s);
    s = run([{ type: "resume", id: "a" }], s);
    expect(item(s, "a")).toMatchObject({ status: "pending", queued: true });
    s = run([{ type: "start", id: "a", at: 2000 }], s);
    expect(item(s, "a")).toMatchObject({ status: "uploading", loaded: 400, attempts: 2 });
    s = run([{ type: "progress", id: "a", loaded: 600, at: 2500, resumedParts: 2 }], s);
    expect(item(s, "a")).toMatchObject({ loaded: 600, resumedParts: 2 });
    // Resume applies only to paused items, cancel to paused ones too.
    expect(run([{ type: "resume", id: "a" }], s)).toBe(s);
    s = run(
      [
        { type: "pause", id: "a" },
        { type: "cancel", id: "a" },
      ],
      s,
    );
    expect(item(s, "a")).toMatchObject({ status: "error", error: { key: "cancelled" } });
  });
});

describe("pause and resume figures", () => {
  const resumed = () =>
    run([
      { type: "add", files: [file("a", 10_000)] },
      { type: "enqueueAll" },
      { type: "start", id: "a", at: 0 },
      { type: "progress", id: "a", loaded: 4000, at: 1000 },
      // 1000 of those bytes were a part cut off by the pause: only 3000 are kept.
      { type: "pause", id: "a", kept: 3000 },
    ]);

  it("a paused upload shows the bytes it keeps, not the ones cut off", () => {
    expect(item(resumed(), "a")).toMatchObject({ status: "paused", loaded: 3000 });
    expect(itemProgress(item(resumed(), "a"))).toMatchObject({ percent: 30, speed: null });
  });

  it("after resuming, parts found already stored raise the progress but not the speed", () => {
    const s = run(
      [
        { type: "resume", id: "a" },
        { type: "start", id: "a", at: 60_000 },
        // The storage check finds the cut-off part stored after all.
        { type: "progress", id: "a", loaded: 4000, at: 60_100 },
        { type: "progress", id: "a", loaded: 4500, at: 60_600 },
      ],
      resumed(),
    );
    expect(itemProgress(item(s, "a"))).toEqual({ percent: 45, speed: 1000, remaining: 6 });
  });

  it("after resuming, the speed counts from the kept bytes and the time spent paused does not count", () => {
    const s = run(
      [
        { type: "resume", id: "a" },
        { type: "start", id: "a", at: 60_000 },
        { type: "progress", id: "a", loaded: 3500, at: 60_500 },
        { type: "progress", id: "a", loaded: 4000, at: 61_000 },
      ],
      resumed(),
    );
    expect(itemProgress(item(s, "a"))).toEqual({ percent: 40, speed: 1000, remaining: 6 });
  });

  it("a kept figure above the shown one is ignored", () => {
    const s = run(
      [{ type: "pause", id: "a", kept: 9000 }],
      run(
        [
          { type: "resume", id: "a" },
          { type: "start", id: "a", at: 2000 },
        ],
        resumed(),
      ),
    );
    expect(item(s, "a").loaded).toBe(3000);
  });
});

describe("network failures", () => {
  it("are the ones coming back online can fix", () => {
    expect(isNetworkFailure({ scope: "engine", key: "network" })).toBe(true);
    expect(isNetworkFailure({ scope: "engine", key: "timeout" })).toBe(true);
    expect(isNetworkFailure({ scope: "upload", key: "network" })).toBe(true);
    expect(isNetworkFailure({ scope: "engine", key: "http", values: { status: 500 } })).toBe(false);
    expect(isNetworkFailure({ scope: "upload", key: "slugTaken" })).toBe(false);
    expect(isNetworkFailure(null)).toBe(false);
  });
});
