import { UploadBase } from "./upload-base";

export interface SingleSendContext {
  signal: AbortSignal;
  onProgress: (loaded: number) => void;
  /** The bytes start again from zero (a fallback to another path). */
  onRestart: () => void;
}

/** Sends a whole file in one request (presigned PUT, or through the server). */
export type SingleSender<R> = (context: SingleSendContext) => Promise<R>;

/**
 * A file small enough for one request. Pausing cancels the request; resuming
 * sends the file again (it is at most two parts long).
 */
export class SingleUpload<R> extends UploadBase<R> {
  private controller: AbortController | null = null;
  private sent = 0;

  constructor(
    total: number,
    private readonly send: SingleSender<R>,
  ) {
    super(total, "single");
  }

  get loaded(): number {
    return this.current === "completed" ? this.total : this.sent;
  }

  protected get resumedParts(): number {
    return 0;
  }

  protected run(): void {
    const controller = new AbortController();
    this.controller = controller;
    this.sent = 0;
    const live = () => this.controller === controller;
    this.send({
      signal: controller.signal,
      onProgress: (loaded) => {
        if (!live()) return;
        this.sent = Math.min(this.total, Math.max(0, loaded));
        this.notify();
      },
      onRestart: () => {
        if (!live()) return;
        this.sent = 0;
        this.notify();
      },
    }).then(
      (result) => {
        if (!live()) return;
        this.controller = null;
        this.succeed(result);
      },
      (error: unknown) => {
        if (live()) this.fail(error);
      },
    );
  }

  protected stop(): void {
    const controller = this.controller;
    this.controller = null;
    this.sent = 0;
    controller?.abort();
  }

  protected async discard(): Promise<void> {
    // The sender removes what it reserved when its request is cancelled.
  }
}
