import { storageUnreachable } from "../errors";

/**
 * A bounded pool of connections to one remote storage server (SFTP sessions,
 * FTP control connections). At most `max` exist at once; callers beyond that
 * wait, and give up after `acquireTimeoutMs` with 503 storage_unreachable.
 * A connection that failed is discarded instead of released, so the next
 * caller opens a fresh one: that is how a dropped server is reconnected.
 * Idle connections are closed after `idleMs`.
 */
export interface PoolOptions<T> {
  open(): Promise<T>;
  close(conn: T): void;
  /** False once the connection is known to be dead (its socket closed). */
  alive(conn: T): boolean;
  max: number;
  idleMs: number;
  acquireTimeoutMs: number;
  /** Names the backend in the 503 a waiting caller gets. */
  backend: string;
}

interface Idle<T> {
  conn: T;
  timer: NodeJS.Timeout;
}

export class ConnectionPool<T> {
  private readonly idle: Idle<T>[] = [];
  private readonly waiters: ((conn: T | null) => void)[] = [];
  private count = 0;
  private closed = false;

  constructor(private readonly options: PoolOptions<T>) {}

  /** Runs `fn` on a pooled connection; a thrown error that `broke` says killed the connection discards it. */
  async use<R>(fn: (conn: T) => Promise<R>, broke: (e: unknown) => boolean): Promise<R> {
    const conn = await this.acquire();
    try {
      const result = await fn(conn);
      this.release(conn);
      return result;
    } catch (e) {
      if (broke(e)) this.discard(conn);
      else this.release(conn);
      throw e;
    }
  }

  async acquire(): Promise<T> {
    while (this.idle.length > 0) {
      const { conn, timer } = this.idle.pop()!;
      clearTimeout(timer);
      if (this.options.alive(conn)) return conn;
      this.drop(conn);
    }
    if (this.count < this.options.max) {
      this.count++;
      try {
        return await this.options.open();
      } catch (e) {
        this.count--;
        this.wakeNext();
        throw e;
      }
    }
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        const i = this.waiters.indexOf(take);
        if (i >= 0) this.waiters.splice(i, 1);
        reject(
          storageUnreachable({ backend: `${this.options.backend}: all connections busy`, code: "ETIMEDOUT" }),
        );
      }, this.options.acquireTimeoutMs);
      const take = (conn: T | null) => {
        clearTimeout(timer);
        // null: a slot freed up instead of a connection; open one in it.
        if (conn) resolve(conn);
        else this.acquire().then(resolve, reject);
      };
      this.waiters.push(take);
    });
  }

  release(conn: T): void {
    if (this.closed || !this.options.alive(conn)) {
      this.discard(conn);
      return;
    }
    const waiter = this.waiters.shift();
    if (waiter) {
      waiter(conn);
      return;
    }
    const timer = setTimeout(() => {
      const i = this.idle.findIndex((x) => x.conn === conn);
      if (i >= 0) this.idle.splice(i, 1);
      this.drop(conn);
    }, this.options.idleMs);
    timer.unref();
    this.idle.push({ conn, timer });
  }

  /** Closes a connection that must not be reused and lets a waiter open a new one. */
  discard(conn: T): void {
    this.drop(conn);
    this.wakeNext();
  }

  async closeAll(): Promise<void> {
    this.closed = true;
    for (const { conn, timer } of this.idle.splice(0)) {
      clearTimeout(timer);
      this.drop(conn);
    }
  }

  private drop(conn: T): void {
    this.count--;
    try {
      this.options.close(conn);
    } catch {
      // Already gone.
    }
  }

  private wakeNext(): void {
    const waiter = this.waiters.shift();
    // The waiter opens its own connection in the freed slot.
    if (waiter) waiter(null);
  }
}
