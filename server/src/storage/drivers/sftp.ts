/**
 * SFTP storage (any server with SSH) through `ssh2`. Sessions are pooled; a
 * session whose socket closed is dropped and the next call opens a new one.
 * Reads use SFTP read offsets for ranges; writes stream to a temp name.
 */
import type { LookupFunction } from "node:net";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { Client, type SFTPWrapper, type Stats } from "ssh2";
import { ConnectionPool } from "./remote-pool";
import {
  type RemoteFs,
  type RemoteStat,
  RemoteTreeDriver,
  remoteError,
  resolveHost,
  withTimeout,
} from "./remote-tree";

export interface RemoteLoginConfig {
  host: string;
  port?: number;
  username: string;
  password: string;
  /** Directory on the server that is the storage root; default the login directory ("" → "."). */
  folder?: string;
  /** The endpoint policy's lookup (STORAGE_ENDPOINT_ALLOW). */
  lookup?: LookupFunction;
  /** Most connections open at once (default 4). */
  maxConnections?: number;
  /** Connect and per-call timeout in ms (default 15 s). */
  timeoutMs?: number;
  /** Local directory for multipart parts; without it the driver has no multipart uploads. */
  partsDir?: string;
}

/** SSH status codes (SFTP v3) that mean "nothing there". */
const NO_SUCH_FILE = 2;
const CONNECTION_CODES = new Set([6, 7]); // NO_CONNECTION, CONNECTION_LOST

interface Session {
  client: Client;
  sftp: SFTPWrapper;
  open: boolean;
}

const codeOf = (e: unknown) => (e as { code?: unknown } | null)?.code;
/** An SFTP status answer leaves the session usable; anything else (socket, timeout) may not. */
const brokeSession = (e: unknown) => {
  const code = codeOf(e);
  return typeof code !== "number" || CONNECTION_CODES.has(code);
};

function statOf(st: Stats): RemoteStat {
  return { isDirectory: st.isDirectory(), size: st.size, modified: new Date(st.mtime * 1000) };
}

const cb =
  <T>(resolve: (v: T) => void, reject: (e: unknown) => void) =>
  (err: Error | null | undefined, value?: T) =>
    err ? reject(err) : resolve(value as T);

class SftpFs implements RemoteFs {
  private readonly pool: ConnectionPool<Session>;
  private readonly timeoutMs: number;

  constructor(private readonly config: RemoteLoginConfig) {
    this.timeoutMs = config.timeoutMs ?? 15_000;
    this.pool = new ConnectionPool<Session>({
      open: () => this.connect(),
      close: (s) => s.client.end(),
      alive: (s) => s.open,
      max: config.maxConnections ?? 4,
      idleMs: 30_000,
      acquireTimeoutMs: this.timeoutMs * 2,
      backend: `SFTP ${config.host}`,
    });
  }

  private async connect(): Promise<Session> {
    const host = await resolveHost(this.config.host, this.config.lookup);
    return new Promise<Session>((resolve, reject) => {
      const client = new Client();
      const session = { client, open: false } as Session;
      client.on("ready", () => {
        client.sftp((err, sftp) => {
          if (err) {
            client.end();
            reject(err);
            return;
          }
          session.sftp = sftp;
          session.open = true;
          resolve(session);
        });
      });
      client.on("error", (e) => {
        session.open = false;
        reject(e);
      });
      client.on("close", () => {
        session.open = false;
      });
      client.connect({
        host,
        port: this.config.port ?? 22,
        username: this.config.username,
        password: this.config.password,
        readyTimeout: this.timeoutMs,
        keepaliveInterval: 10_000,
      });
    });
  }

  /** One SFTP call on a pooled session, with a timeout and storage errors. */
  private call<T>(
    path: string,
    fn: (sftp: SFTPWrapper, done: (e: Error | null | undefined, v?: T) => void) => void,
  ) {
    return this.pool
      .use(
        (s) =>
          withTimeout(
            new Promise<T>((resolve, reject) => fn(s.sftp, cb(resolve, reject))),
            this.timeoutMs,
            "SFTP call",
          ),
        brokeSession,
      )
      .catch((e) => {
        throw remoteError(e, path, "SFTP", codeOf(e) === NO_SUCH_FILE);
      });
  }

  async stat(path: string): Promise<RemoteStat | null> {
    try {
      return statOf(await this.call<Stats>(path, (sftp, done) => sftp.stat(path, done)));
    } catch (e) {
      if ((e as { status?: number }).status === 404) return null;
      throw e;
    }
  }

  async list(dir: string) {
    const items = await this.call<{ filename: string; attrs: Stats }[]>(dir, (sftp, done) =>
      sftp.readdir(dir, done),
    );
    return items.map((i) => ({ name: i.filename, stat: statOf(i.attrs) }));
  }

  async read(path: string, start: number, end: number): Promise<Readable> {
    const session = await this.pool.acquire();
    const stream = session.sftp.createReadStream(path, { start, end, highWaterMark: 256 * 1024 });
    let failed = false;
    stream.on("error", (e: Error) => {
      failed = true;
      stream.destroy(remoteError(e, path, "SFTP", codeOf(e) === NO_SUCH_FILE));
    });
    stream.once("close", () => {
      if (failed && brokeSession(stream.errored)) this.pool.discard(session);
      else this.pool.release(session);
    });
    return stream;
  }

  async write(path: string, body: Readable, _size: number | undefined, signal: AbortSignal): Promise<void> {
    const session = await this.pool.acquire();
    const target = session.sftp.createWriteStream(path, { flags: "w" });
    try {
      await pipeline(body, target, { signal });
      this.pool.release(session);
    } catch (e) {
      if (brokeSession(e) && !signal.aborted) this.pool.discard(session);
      else this.pool.release(session);
      throw remoteError(e, path, "SFTP", false);
    }
  }

  async mkdir(path: string): Promise<void> {
    await this.call<void>(path, (sftp, done) => sftp.mkdir(path, done));
  }

  async removeFile(path: string): Promise<void> {
    await this.call<void>(path, (sftp, done) => sftp.unlink(path, done));
  }

  async removeDir(path: string): Promise<void> {
    await this.call<void>(path, (sftp, done) => sftp.rmdir(path, done));
  }

  /** SFTP v3's rename refuses an existing target: replace it explicitly (the base checked it is a file). */
  async rename(from: string, to: string): Promise<void> {
    if (await this.stat(to)) await this.removeFile(to);
    await this.call<void>(from, (sftp, done) => sftp.rename(from, to, done));
  }

  close(): Promise<void> {
    return this.pool.closeAll();
  }
}

export const localParts = (config: { partsDir?: string | undefined }) =>
  config.partsDir ? { dir: config.partsDir } : undefined;

/** Absolute root directory on the server for a configured folder. */
export function remoteRoot(folder: string | undefined): string {
  const trimmed = (folder ?? "").replace(/^\/+|\/+$/g, "");
  return `/${trimmed}`;
}

export function createSftpDriver(config: RemoteLoginConfig): RemoteTreeDriver {
  return new RemoteTreeDriver("SFTP", new SftpFs(config), remoteRoot(config.folder), localParts(config));
}
