/**
 * FTP and FTPS storage (old NAS boxes, hosting accounts) through `basic-ftp`.
 * An FTP connection carries one transfer at a time, so connections are
 * pooled; a read holds its connection until the body is consumed. Ranges use
 * REST (restart offset) and cut the transfer at the range's end.
 */

import { type Readable, Transform, type TransformCallback } from "node:stream";
import type { ConnectionOptions } from "node:tls";
import type { Client, FileInfo } from "basic-ftp";
import { lazyRequire } from "../../lib/lazy-require";
import { REMOTE_READ_AHEAD } from "../streams";
import { ConnectionPool } from "./remote-pool";
import {
  localParts,
  type RemoteFs,
  type RemoteStat,
  RemoteTreeDriver,
  remoteError,
  remoteRoot,
  resolveHost,
} from "./remote-tree";
import type { RemoteLoginConfig } from "./sftp";

/** Loaded when the first connection is made: servers without this kind of storage never hold it. */
const loadBasicFtp = lazyRequire<typeof import("basic-ftp")>("basic-ftp");

export interface FtpConfig extends RemoteLoginConfig {
  /** false: plain FTP; true: explicit TLS (AUTH TLS, "FTPES"); "implicit": TLS from the first byte (port 990). */
  secure: boolean | "implicit";
  /** Extra TLS settings, e.g. `ca` for a server with a private certificate authority. */
  tls?: ConnectionOptions;
}

const codeOf = (e: unknown) => (e as { code?: unknown } | null)?.code;
/** 550: no such file or directory (or not allowed); the server's answer for "nothing there". */
const isMissing = (e: unknown) => codeOf(e) === 550;
/** A numeric reply means the server answered and the connection is fine; anything else may have broken it. */
const brokeConnection = (e: unknown) => typeof codeOf(e) !== "number";

function statOf(info: FileInfo): RemoteStat {
  return {
    isDirectory: info.type === loadBasicFtp().FileType.Directory,
    size: info.size,
    modified: info.modifiedAt ?? null,
  };
}

/** Passes `limit` bytes, then ends; the rest of the transfer is not wanted. */
class Cut extends Transform {
  private left: number;
  constructor(limit: number) {
    // The cut is also the read-ahead (streams.ts): no extra stream on this path.
    super({ highWaterMark: REMOTE_READ_AHEAD });
    this.left = limit;
  }
  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    if (this.left > 0) {
      const part = chunk.length <= this.left ? chunk : chunk.subarray(0, this.left);
      this.left -= part.length;
      this.push(part);
      if (this.left === 0) this.push(null);
    }
    done();
  }
}

class FtpFs implements RemoteFs {
  private readonly pool: ConnectionPool<Client>;
  private mlst: boolean | null = null;

  constructor(private readonly config: FtpConfig) {
    const timeoutMs = config.timeoutMs ?? 15_000;
    this.pool = new ConnectionPool<Client>({
      open: () => this.connect(timeoutMs),
      close: (c) => c.close(),
      alive: (c) => !c.closed,
      max: config.maxConnections ?? 4,
      idleMs: 30_000,
      acquireTimeoutMs: timeoutMs * 2,
      backend: `FTP ${config.host}`,
    });
  }

  private async connect(timeoutMs: number): Promise<Client> {
    const address = await resolveHost(this.config.host, this.config.lookup);
    const client = new (loadBasicFtp().Client)(timeoutMs);
    try {
      await client.access({
        host: address,
        port: this.config.port ?? (this.config.secure === "implicit" ? 990 : 21),
        user: this.config.username,
        password: this.config.password,
        secure: this.config.secure,
        // The certificate names the configured host, not the address it resolved to.
        secureOptions: { servername: this.config.host, ...this.config.tls },
      });
      if (this.mlst === null) this.mlst = (await client.features()).has("MLST");
      return client;
    } catch (e) {
      client.close();
      throw e;
    }
  }

  private call<T>(path: string, fn: (c: Client) => Promise<T>): Promise<T> {
    return this.pool.use(fn, brokeConnection).catch((e) => {
      throw remoteError(e, path, "FTP", isMissing(e));
    });
  }

  async stat(path: string): Promise<RemoteStat | null> {
    try {
      return await this.call(path, async (c) => {
        if (this.mlst) {
          // MLST answers with one facts line for the path itself.
          const res = await c.send(`MLST ${path}`);
          const line = res.message.split("\n").find((l) => l.startsWith(" "));
          const info = line ? loadBasicFtp().parseList(line.trim())[0] : undefined;
          if (info) return statOf(info);
        }
        const parent = path.slice(0, path.lastIndexOf("/")) || "/";
        const name = path.slice(path.lastIndexOf("/") + 1);
        const found = (await c.list(parent)).find((i) => i.name === name);
        if (!found) throw Object.assign(new Error(`${path}: not found`), { code: 550 });
        return statOf(found);
      });
    } catch (e) {
      if ((e as { status?: number }).status === 404) return null;
      throw e;
    }
  }

  async list(dir: string) {
    const items = await this.call(dir, (c) => c.list(dir));
    return items.map((i) => ({ name: i.name, stat: statOf(i) }));
  }

  async read(path: string, start: number, end: number): Promise<Readable> {
    const client = await this.pool.acquire();
    const wanted = end - start + 1;
    // The data connection is piped straight into what the caller reads: every stream between
    // them is another pass over each chunk.
    const out = new Cut(wanted);
    let done = false;
    const finish = (reusable: boolean) => {
      if (done) return;
      done = true;
      if (reusable) this.pool.release(client);
      else this.pool.discard(client);
    };
    client.downloadTo(out, path, start).then(
      () => finish(true),
      (e) => {
        // Cut short on purpose (range end reached or reader gone): the connection is closed, not broken.
        if (!out.readableEnded && !out.destroyed) out.destroy(remoteError(e, path, "FTP", isMissing(e)));
        finish(!brokeConnection(e));
      },
    );
    // A range that ends before the file does, or a reader that stops early: stop the transfer.
    const stop = () => {
      if (!done) {
        finish(false);
        client.close();
      }
    };
    out.once("end", () => setImmediate(stop));
    out.once("close", () => setImmediate(stop));
    return out;
  }

  async write(path: string, body: Readable, _size: number | undefined, signal: AbortSignal): Promise<void> {
    await this.call(path, async (c) => {
      const onAbort = () => c.close();
      signal.addEventListener("abort", onAbort, { once: true });
      try {
        await c.uploadFrom(body, path);
      } finally {
        signal.removeEventListener("abort", onAbort);
      }
    });
  }

  async mkdir(path: string): Promise<void> {
    await this.call(path, (c) => c.send(`MKD ${path}`));
  }

  async removeFile(path: string): Promise<void> {
    await this.call(path, (c) => c.remove(path));
  }

  async removeDir(path: string): Promise<void> {
    await this.call(path, (c) => c.removeEmptyDir(path));
  }

  async rename(from: string, to: string): Promise<void> {
    await this.call(from, (c) => c.rename(from, to));
  }

  close(): Promise<void> {
    return this.pool.closeAll();
  }
}

export function createFtpDriver(config: FtpConfig): RemoteTreeDriver {
  return new RemoteTreeDriver("FTP", new FtpFs(config), remoteRoot(config.folder), localParts(config));
}
