import type { ChildProcess } from "node:child_process";

export declare const RIG_ADMIN: { username: string; password: string };

export interface RigInstance {
  /** a, b, ...: its INSTANCE_NAME, sent back in X-ClipShare-Instance. */
  readonly name: string;
  readonly port: number;
  /** The instance itself, bypassing nginx. */
  readonly url: string;
  readonly pid: number;
  readonly child: ChildProcess | null;
  stderr(): string;
  /** Starts it (again: same port, data dir and environment). */
  start(): Promise<void>;
  stop(): Promise<void>;
  kill9(): Promise<void>;
}

export interface Rig {
  /** nginx, balancing over every instance. */
  readonly url: string;
  readonly instances: RigInstance[];
  readonly databaseUrl: string;
  readonly secretKey: string;
  readonly nginxPid: number;
  /** Resolves once a request through nginx was answered by instance `name` (it is back in rotation). */
  waitServedBy(name: string, timeoutMs?: number): Promise<void>;
  /** The last lines of nginx's error log. */
  nginxErrors(): string;
  stop(): Promise<void>;
}

export declare function rigMissing(): string | null;
export declare function startRig(options?: { count?: number; env?: Record<string, string> }): Promise<Rig>;
