import { MULTIPART_CONCURRENCY, MULTIPART_RETRIES, type PartUrl, UPLOAD_TIMEOUT_MS } from "@clipshare/shared";
import { cleanEtag, partError, TransferError, UploadEngineError } from "./errors";
import { type PartPlan, type PlannedPart, plannedParts } from "./part-plan";
import type { MultipartSession, ResumeStore, StoredPart } from "./resume-store";
import { UploadBase } from "./upload-base";

export type PartState = "pending" | "uploading" | "completed" | "failed";

export interface PartInfo extends PlannedPart {
  status: PartState;
  retryCount: number;
  etag: string | null;
  uploadedBytes: number;
}

export type { PartUrl };

/** The server side of one destination's multipart routes (shares, explorer, URL uploads). */
export interface MultipartBackend<S, R> {
  init(plan: PartPlan, signal: AbortSignal): Promise<{ session: MultipartSession<S>; urls: PartUrl[] }>;
  /** Parts the storage holds and fresh part URLs; throws UploadEngineError "uploadGone" when the upload lapsed. */
  resume(
    session: MultipartSession<S>,
    signal: AbortSignal,
  ): Promise<{ parts: StoredPart[]; urls: PartUrl[] }>;
  complete(
    session: MultipartSession<S>,
    parts: Array<{ partNumber: number; etag: string }>,
    signal: AbortSignal,
  ): Promise<R>;
  abort(session: MultipartSession<S>): Promise<void>;
}

/** One part PUT; rejects with TransferError when no answer came. */
export interface PartTransport {
  put(request: {
    url: string;
    body: Blob;
    signal: AbortSignal;
    onProgress: (loaded: number) => void;
  }): Promise<{ status: number; etag: string | null }>;
}

export interface Clock {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const systemClock: Clock = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export interface MultipartOptions<S, R> {
  file: Blob;
  plan: PartPlan;
  backend: MultipartBackend<S, R>;
  transport: PartTransport;
  /** Where progress is saved for a later resume; `storeKey` names this file and destination. */
  store?: ResumeStore | undefined;
  storeKey?: string | undefined;
  concurrency?: number;
  retries?: number;
  /** The n-th retry of a part waits n × this. */
  retryDelayMs?: number;
  partTimeoutMs?: number;
  clock?: Clock;
  /** The body of a part when it is not the file's bytes as they are (encrypted uploads seal each part). */
  sealPart?: (part: PlannedPart) => Promise<Blob>;
}

const RETRY_DELAY_MS = 1000;

/**
 * A multipart upload: parts of the plan's size, a few in flight, each retried
 * with a growing delay and bounded by a timeout. Progress is saved after every
 * part; starting again with the same file and destination asks the server
 * which parts the storage already holds and sends only the others.
 */
export class MultipartUploader<S, R> extends UploadBase<R> {
  parts: PartInfo[];
  private session: MultipartSession<S> | null = null;
  private urls = new Map<number, string>();
  private runId = 0;
  private readonly inflight = new Map<number, AbortController>();
  private readonly retryTimers = new Set<unknown>();
  private stepController: AbortController | null = null;
  private refreshing: Promise<void> | null = null;
  private resumed = 0;
  private readonly concurrency: number;
  private readonly retries: number;
  private readonly retryDelayMs: number;
  private readonly partTimeoutMs: number;
  private readonly clock: Clock;

  constructor(private readonly options: MultipartOptions<S, R>) {
    super(options.plan.totalSize, "multipart");
    this.parts = toParts(options.plan);
    this.concurrency = options.concurrency ?? MULTIPART_CONCURRENCY;
    this.retries = options.retries ?? MULTIPART_RETRIES;
    this.retryDelayMs = options.retryDelayMs ?? RETRY_DELAY_MS;
    this.partTimeoutMs = options.partTimeoutMs ?? UPLOAD_TIMEOUT_MS;
    this.clock = options.clock ?? systemClock;
  }

  get loaded(): number {
    let bytes = 0;
    for (const part of this.parts) bytes += part.status === "completed" ? part.size : part.uploadedBytes;
    return bytes;
  }

  protected get resumedParts(): number {
    return this.resumed;
  }

  protected run(): void {
    const run = ++this.runId;
    for (const part of this.parts) {
      if (part.status === "failed")
        Object.assign(part, { status: "pending", retryCount: 0, uploadedBytes: 0 });
    }
    const controller = new AbortController();
    this.stepController = controller;
    this.prepare(controller.signal).then(
      () => {
        if (this.stepController === controller) this.stepController = null;
        if (run === this.runId && this.current === "uploading") this.pump(run);
      },
      (error: unknown) => {
        if (run === this.runId) this.fail(error);
      },
    );
  }

  protected stop(): void {
    this.runId++;
    this.stepController?.abort();
    this.stepController = null;
    for (const controller of this.inflight.values()) controller.abort();
    this.inflight.clear();
    for (const timer of this.retryTimers) this.clock.clearTimeout(timer);
    this.retryTimers.clear();
    for (const part of this.parts) {
      if (part.status === "uploading") Object.assign(part, { status: "pending", uploadedBytes: 0 });
    }
  }

  protected async discard(): Promise<void> {
    const { store, storeKey } = this.options;
    if (store && storeKey) await store.remove(storeKey);
    if (this.session) await this.options.backend.abort(this.session).catch(() => undefined);
  }

  /** Before sending: the server's view of the upload (a saved one, the current one) or a new upload. */
  private async prepare(signal: AbortSignal): Promise<void> {
    const { backend, store, storeKey } = this.options;
    const known = this.session ?? (store && storeKey ? (await store.load<S>(storeKey))?.session : null);
    if (known && known.totalSize === this.total) {
      try {
        const state = await backend.resume(known, signal);
        const firstLook = this.session === null;
        this.adopt(known, state.urls);
        const held = this.applyStored(state.parts);
        if (firstLook) this.resumed = held;
        this.notify();
        return;
      } catch (error) {
        if (!(error instanceof UploadEngineError && error.code === "uploadGone")) throw error;
        // The storage no longer has it (lapsed or aborted elsewhere): start over.
        if (store && storeKey) await store.remove(storeKey);
        this.session = null;
        this.parts = toParts(this.options.plan);
        this.resumed = 0;
      }
    }
    const started = await backend.init(this.options.plan, signal);
    if (this.current === "aborted") {
      await backend.abort(started.session).catch(() => undefined);
      return;
    }
    if (!started.session.uploadId) throw new UploadEngineError("infoIncomplete");
    this.adopt(started.session, started.urls);
    await this.save();
  }

  private adopt(session: MultipartSession<S>, urls: PartUrl[]): void {
    if (this.session !== session) {
      const planned = { totalSize: this.total, partSize: session.partSize, partCount: session.partCount };
      if (session.partSize !== this.parts[0]?.size || session.partCount !== this.parts.length)
        this.parts = toParts(planned);
      this.session = session;
    }
    this.urls = new Map(urls.map((u) => [u.partNumber, u.url]));
  }

  /** The storage is the truth: parts it holds (whole) are done, all others are sent again. */
  private applyStored(stored: StoredPart[]): number {
    const byNumber = new Map(stored.map((p) => [p.partNumber, p]));
    let held = 0;
    for (const part of this.parts) {
      const found = byNumber.get(part.partNumber);
      const etag = cleanEtag(found?.etag);
      if (found && etag && (found.size === undefined || found.size === part.size)) {
        Object.assign(part, { status: "completed", etag, uploadedBytes: part.size });
        held++;
      } else if (part.status === "completed") {
        Object.assign(part, { status: "pending", etag: null, uploadedBytes: 0 });
      }
    }
    return held;
  }

  private pump(run: number): void {
    if (run !== this.runId || this.current !== "uploading") return;
    if (this.parts.every((p) => p.status === "completed")) {
      this.finish(run);
      return;
    }
    let active = this.parts.filter((p) => p.status === "uploading").length;
    for (const part of this.parts) {
      if (active >= this.concurrency) break;
      if (part.status !== "pending") continue;
      active++;
      this.send(part, run);
    }
  }

  private send(part: PartInfo, run: number): void {
    Object.assign(part, { status: "uploading", uploadedBytes: 0 });
    const url = this.urls.get(part.partNumber);
    if (!url) {
      part.status = "failed";
      this.fail(new UploadEngineError("infoIncomplete"));
      return;
    }
    const controller = new AbortController();
    this.inflight.set(part.partNumber, controller);
    let timedOut = false;
    const timer = this.clock.setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, this.partTimeoutMs);
    const settle = () => {
      this.clock.clearTimeout(timer);
      if (this.inflight.get(part.partNumber) === controller) this.inflight.delete(part.partNumber);
    };

    const body = this.options.sealPart
      ? this.options.sealPart(part)
      : Promise.resolve(this.options.file.slice(part.start, part.end));
    body
      .then((blob) =>
        this.options.transport.put({
          url,
          body: blob,
          signal: controller.signal,
          onProgress: (loaded) => {
            if (run !== this.runId || part.status !== "uploading") return;
            part.uploadedBytes = Math.min(part.size, Math.max(0, loaded));
            this.notify();
          },
        }),
      )
      .then((response) => {
        if (response.status < 200 || response.status >= 300)
          throw new TransferError("status", response.status);
        const etag = cleanEtag(response.etag);
        if (!etag) throw new UploadEngineError("partFailed");
        settle();
        // A part that arrived is stored even if the upload was paused meanwhile.
        if (this.current === "aborted") return;
        Object.assign(part, { status: "completed", etag, uploadedBytes: part.size });
        void this.save();
        this.notify();
        this.pump(run);
      })
      .catch((error: unknown) => {
        settle();
        if (run !== this.runId) return;
        const failure = timedOut ? new UploadEngineError("timeout") : partError(error);
        part.uploadedBytes = 0;
        if (part.retryCount >= this.retries) {
          part.status = "failed";
          this.fail(failure);
          return;
        }
        part.retryCount++;
        // A refused signature usually means the part URLs expired during a long upload: get fresh ones.
        const expired = failure.code === "http" && failure.status === 403;
        const wait = this.clock.setTimeout(() => {
          this.retryTimers.delete(wait);
          if (run !== this.runId) return;
          if (!expired) return this.send(part, run);
          this.refreshUrls().then(
            () => run === this.runId && this.send(part, run),
            (refreshError: unknown) => run === this.runId && this.fail(refreshError),
          );
        }, this.retryDelayMs * part.retryCount);
        this.retryTimers.add(wait);
        this.notify();
      });
  }

  /** Fresh part URLs from the server; parts failing together share one request. */
  private refreshUrls(): Promise<void> {
    const session = this.session;
    if (!session) return Promise.resolve();
    this.refreshing ??= this.options.backend
      .resume(session, new AbortController().signal)
      .then((state) => {
        this.urls = new Map(state.urls.map((u) => [u.partNumber, u.url]));
      })
      .finally(() => {
        this.refreshing = null;
      });
    return this.refreshing;
  }

  private finish(run: number): void {
    const session = this.session;
    // Only one completion at a time (the last parts finish together).
    if (!session || this.stepController) return;
    const controller = new AbortController();
    this.stepController = controller;
    const parts = this.parts.map((p) => ({ partNumber: p.partNumber, etag: p.etag ?? "" }));
    this.options.backend.complete(session, parts, controller.signal).then(
      async (result) => {
        if (this.stepController === controller) this.stepController = null;
        if (run !== this.runId) return;
        const { store, storeKey } = this.options;
        if (store && storeKey) await store.remove(storeKey);
        this.succeed(result);
      },
      (error: unknown) => {
        if (this.stepController === controller) this.stepController = null;
        if (run === this.runId) this.fail(error);
      },
    );
  }

  private async save(): Promise<void> {
    const { store, storeKey } = this.options;
    if (!store || !storeKey || !this.session) return;
    const done = this.parts
      .filter((p) => p.status === "completed" && p.etag)
      .map((p) => ({ partNumber: p.partNumber, etag: p.etag!, size: p.size }));
    await store.save(storeKey, this.session, done);
  }
}

function toParts(plan: PartPlan): PartInfo[] {
  return plannedParts(plan).map((p) => ({
    ...p,
    status: "pending",
    retryCount: 0,
    etag: null,
    uploadedBytes: 0,
  }));
}
