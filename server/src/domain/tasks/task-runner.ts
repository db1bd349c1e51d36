/**
 * Runs queued tasks on this instance: claims them (never twice, see
 * TaskService.claimNext), calls the handler for the task's type on behalf of
 * its creator, writes throttled progress, honours cancellation (checked with
 * every progress write, so a cancel sent to any instance reaches the one
 * running it), keeps a heartbeat and recovers tasks of dead instances.
 * On shutdown running tasks are handed back to the queue, not dropped.
 */
import type { TaskStatus } from "@clipshare/shared";
import type { Principal } from "../../auth/principal";
import type { TaskRow } from "../../db/schema";
import type { Logger } from "../../logger";
import type { TaskProgress, TaskService } from "./task-service";

export interface TaskRun {
  task: TaskRow;
  payload: unknown;
  /** What a previous, interrupted run recorded (resume from it), or null. */
  previous: unknown;
  principal: Principal;
  signal: AbortSignal;
  /** Records progress; written at most twice a second (the runner's `progressMs`) unless `force`. */
  progress(patch: TaskProgress, force?: boolean): Promise<void>;
}

export interface TaskOutcome {
  status: Extract<TaskStatus, "completed" | "failed" | "partial">;
  error?: string | null;
}

export type TaskHandler = (run: TaskRun) => Promise<TaskOutcome>;

export interface TaskRunnerOptions {
  concurrency?: number;
  pollMs?: number;
  heartbeatMs?: number;
  /** A running task not heard of for this long belongs to a dead instance. */
  staleMs?: number;
  /** The same at start-up; 0 with SQLite, where no other instance can exist. */
  startupStaleMs?: number;
  /** Progress is written at most this often (forced writes aside): a copy does not write per chunk. */
  progressMs?: number;
}

const CANCELLED = "cancelled";
const SHUTDOWN = "shutdown";

export class TaskRunner {
  private readonly handlers = new Map<string, TaskHandler>();
  private readonly running = new Map<string, { controller: AbortController; done: Promise<void> }>();
  private timers: NodeJS.Timeout[] = [];
  private stopping = false;
  private filling: Promise<void> | null = null;
  private refill = false;
  private readonly options: Required<TaskRunnerOptions>;

  constructor(
    private readonly tasks: TaskService,
    private readonly resolveCreator: (createdBy: string) => Promise<Principal | null>,
    private readonly log: Logger,
    options: TaskRunnerOptions = {},
  ) {
    this.options = {
      concurrency: options.concurrency ?? 2,
      pollMs: options.pollMs ?? 5000,
      heartbeatMs: options.heartbeatMs ?? 10_000,
      staleMs: options.staleMs ?? 60_000,
      startupStaleMs: options.startupStaleMs ?? options.staleMs ?? 60_000,
      progressMs: options.progressMs ?? 500,
    };
  }

  register(type: string, handler: TaskHandler): void {
    this.handlers.set(type, handler);
  }

  async start(): Promise<void> {
    await this.recover(this.options.startupStaleMs);
    const poll = setInterval(() => {
      void this.recover(this.options.staleMs).then(() => this.wake());
    }, this.options.pollMs);
    const beat = setInterval(() => {
      this.tasks.heartbeat().catch((err) => this.log.warn({ err }, "Task heartbeat failed"));
    }, this.options.heartbeatMs);
    poll.unref();
    beat.unref();
    this.timers = [poll, beat];
    this.wake();
  }

  /** Claims work now (a task was queued here or, through the bus, elsewhere). */
  wake(): void {
    if (this.stopping) return;
    if (this.filling) {
      this.refill = true;
      return;
    }
    this.filling = this.fill()
      .catch((err) => this.log.warn({ err }, "Claiming tasks failed"))
      .finally(() => {
        this.filling = null;
        if (this.refill) {
          this.refill = false;
          this.wake();
        }
      });
  }

  /** Stops claiming, interrupts running tasks and hands them back to the queue. */
  async stop(): Promise<void> {
    this.stopping = true;
    for (const timer of this.timers) clearInterval(timer);
    this.timers = [];
    await this.filling;
    for (const { controller } of this.running.values()) controller.abort(SHUTDOWN);
    await Promise.allSettled([...this.running.values()].map((r) => r.done));
  }

  /** Resolves when nothing runs here (tests). */
  async idle(): Promise<void> {
    while (this.filling || this.running.size > 0) {
      await Promise.allSettled([this.filling, ...[...this.running.values()].map((r) => r.done)]);
    }
  }

  private async recover(staleMs: number): Promise<void> {
    try {
      const { resumed, failed } = await this.tasks.recoverStale(staleMs);
      if (resumed + failed > 0)
        this.log.warn({ resumed, failed }, "Recovered tasks of an instance that stopped");
    } catch (err) {
      this.log.warn({ err }, "Recovering stale tasks failed");
    }
  }

  private async fill(): Promise<void> {
    while (!this.stopping && this.running.size < this.options.concurrency) {
      const task = await this.tasks.claimNext();
      if (!task) return;
      const controller = new AbortController();
      const done = this.run(task, controller).finally(() => {
        this.running.delete(task.id);
        this.wake();
      });
      this.running.set(task.id, { controller, done });
    }
  }

  private async run(task: TaskRow, controller: AbortController): Promise<void> {
    const latest: TaskProgress = {};
    const finish = (status: TaskStatus, error: string | null) =>
      this.tasks.finish(task.id, status, { ...latest, error }).catch((err) => {
        this.log.error({ err, taskId: task.id }, "Could not record the end of a task");
      });
    const handler = this.handlers.get(task.type);
    const principal = await this.resolveCreator(task.created_by).catch(() => null);
    if (!handler) return finish("failed", `Unknown task type: ${task.type}`);
    if (!principal) return finish("failed", "The task's owner no longer exists or its API key has expired");
    let lastWrite = 0;
    const progress = async (patch: TaskProgress, force = false) => {
      Object.assign(latest, patch);
      const now = Date.now();
      if (!force && now - lastWrite < this.options.progressMs) return;
      lastWrite = now;
      const { cancelRequested } = await this.tasks.progress(task.id, latest);
      if (cancelRequested && !controller.signal.aborted) controller.abort(CANCELLED);
    };
    try {
      const outcome = await handler({
        task,
        payload: parseJson(task.payload),
        previous: parseJson(task.result),
        principal,
        signal: controller.signal,
        progress,
      });
      if (controller.signal.reason === SHUTDOWN) await this.tasks.release(task.id, latest);
      else
        await finish(
          controller.signal.reason === CANCELLED ? "cancelled" : outcome.status,
          outcome.error ?? null,
        );
    } catch (err) {
      const reason = controller.signal.reason;
      if (reason === SHUTDOWN) await this.tasks.release(task.id, latest);
      else if (reason === CANCELLED) await finish("cancelled", null);
      else {
        this.log.warn({ err, taskId: task.id }, "Task failed");
        await finish("failed", err instanceof Error ? err.message : String(err));
      }
    }
  }
}

function parseJson(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
