import { UploadEngineError } from "./errors";

/** States of one upload (single request or multipart). */
export type UploaderState = "idle" | "uploading" | "paused" | "completed" | "failed" | "aborted";

export interface UploadSnapshot<R> {
  state: UploaderState;
  /** Bytes the storage holds or is receiving right now. */
  loaded: number;
  total: number;
  method: "single" | "multipart";
  /** Parts that were already stored when this upload resumed an earlier one. */
  resumedParts: number;
  error: unknown;
  result: R | null;
}

/** What the app can do with an upload, whichever path it takes. */
export interface Upload<R> {
  readonly state: UploaderState;
  snapshot(): UploadSnapshot<R>;
  subscribe(listener: () => void): () => void;
  start(): void;
  pause(): void;
  /** Only from paused; anything else throws "can only resume a paused upload". */
  resume(): void;
  /** Stops for good and removes what was stored (multipart upload, file record, saved progress). */
  abort(): Promise<void>;
  /** From failed: sends what is missing again. */
  retry(): void;
}

/** The state handling both upload kinds share. */
export abstract class UploadBase<R> implements Upload<R> {
  protected current: UploaderState = "idle";
  protected error: unknown = null;
  protected result: R | null = null;
  private readonly listeners = new Set<() => void>();

  constructor(
    readonly total: number,
    readonly method: "single" | "multipart",
  ) {}

  get state(): UploaderState {
    return this.current;
  }

  abstract get loaded(): number;
  protected abstract get resumedParts(): number;
  protected abstract run(): void;
  protected abstract stop(): void;
  protected abstract discard(): Promise<void>;

  snapshot(): UploadSnapshot<R> {
    return {
      state: this.current,
      loaded: this.loaded,
      total: this.total,
      method: this.method,
      resumedParts: this.resumedParts,
      error: this.error,
      result: this.result,
    };
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  protected notify(): void {
    for (const listener of this.listeners) listener();
  }

  protected setState(state: UploaderState): void {
    this.current = state;
    this.notify();
  }

  start(): void {
    if (this.current !== "idle") return;
    this.setState("uploading");
    this.run();
  }

  pause(): void {
    if (this.current !== "uploading") return;
    this.setState("paused");
    this.stop();
  }

  resume(): void {
    if (this.current !== "paused") throw new UploadEngineError("notPaused");
    this.setState("uploading");
    this.run();
  }

  retry(): void {
    if (this.current !== "failed") return;
    this.error = null;
    this.setState("uploading");
    this.run();
  }

  async abort(): Promise<void> {
    if (this.current === "completed" || this.current === "aborted") return;
    this.setState("aborted");
    this.stop();
    await this.discard();
  }

  protected succeed(result: R): void {
    this.result = result;
    this.setState("completed");
  }

  protected fail(error: unknown): void {
    if (this.current !== "uploading") return;
    this.error = error;
    this.current = "failed";
    this.stop();
    this.notify();
  }
}
