/**
 * SFTP storage (any server with SSH) through `ssh2`. Sessions are pooled; a
 * session whose socket closed is dropped and the next call opens a new one.
 * Reads and writes keep many requests in flight (ranges too); writes go to a temp name.
 */
import { createHash } from "node:crypto";
import { once } from "node:events";
import type { Readable, Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { Client, SFTPWrapper, Stats } from "ssh2";
import { lazyRequire } from "../../lib/lazy-require";
import { storageFailure } from "../errors";
import {
  localParts,
  type RemoteFs,
  type RemoteSettings,
  type RemoteStat,
  RemoteTreeDriver,
  remoteError,
  remoteRoot,
  resolveHost,
  withTimeout,
} from "./remote-tree";
import { SftpRangeReader } from "./sftp-read";
import { SftpWriter } from "./sftp-write";

/** Loaded when the first connection is made: servers without this kind of storage never hold it. */
const loadSsh2 = lazyRequire<typeof import("ssh2")>("ssh2");

/** An SFTP or FTP server: host and port besides the shared settings (defaults: 4 connections, 15 s). */
export interface RemoteLoginConfig extends RemoteSettings {
  host: string;
  port?: number;
  /** SFTP: the server's pinned host-key fingerprint ("SHA256:<base64>"); any key is taken without it. */
  hostKey?: string | undefined;
}

/** A host key's SHA-256 fingerprint as OpenSSH prints it ("SHA256:" + unpadded base64). */
export function hostKeyFingerprint(key: Buffer): string {
  return `SHA256:${createHash("sha256").update(key).digest("base64").replace(/=+$/, "")}`;
}

/** The server showed another key than the pinned one: possibly not the server the admin set up. */
const hostKeyMismatch = (seen: string, pinned: string) =>
  storageFailure("The SFTP server's host key is not the pinned one", {
    backend: `SFTP: host key ${seen} is not the pinned ${pinned}`,
    code: "HOST_KEY_MISMATCH",
  });

/** SSH status codes (SFTP v3) that mean "nothing there". */
const NO_SUCH_FILE = 2;
const CONNECTION_CODES = new Set([6, 7]); // NO_CONNECTION, CONNECTION_LOST

interface Session {
  client: Client;
  sftp: SFTPWrapper;
  open: boolean;
}

const codeOf = (e: unknown) => (e as { code?: unknown } | null)?.code;

/** ssh2 fails requests pending on a lost connection without a code ("No response from server"). */
const lostWith = (e: unknown, s: Session) =>
  s.open || codeOf(e) !== undefined ? e : Object.assign(e as Error, { code: "ECONNRESET" });
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

/** In-flight calls per session before another session is opened (SFTP pipelines requests on one channel). */
const CALLS_PER_SESSION = 4;

class SftpFs implements RemoteFs {
  /**
   * Live sessions, shared: SFTP multiplexes requests on one channel, so calls
   * are spread over the least busy session and nobody waits for a checkout.
   * A session whose socket closed is dropped; the next call opens a new one.
   */
  private sessions: (Session & { busy: number })[] = [];
  private opening: Promise<Session & { busy: number }> | null = null;
  private readonly timeoutMs: number;
  private readonly max: number;
  /** The fingerprint of the host key the server showed last (for the storage test). */
  private seenHostKey: string | null = null;

  constructor(private readonly config: RemoteLoginConfig) {
    this.timeoutMs = config.timeoutMs ?? 15_000;
    this.max = config.maxConnections ?? 4;
  }

  private async session(): Promise<Session & { busy: number }> {
    this.sessions = this.sessions.filter((s) => s.open);
    const idlest = this.sessions.reduce<(Session & { busy: number }) | null>(
      (best, s) => (!best || s.busy < best.busy ? s : best),
      null,
    );
    if (idlest && (idlest.busy < CALLS_PER_SESSION || this.sessions.length >= this.max)) return idlest;
    this.opening ??= this.connect()
      .then((s) => {
        const shared = Object.assign(s, { busy: 0 });
        this.sessions.push(shared);
        return shared;
      })
      .finally(() => {
        this.opening = null;
      });
    return this.opening;
  }

  /** Fails `stream` as soon as the session's connection closes: ssh2 leaves pending transfers waiting. */
  private failOnClose(
    s: Session,
    stream: Readable | Writable,
    as: (e: Error) => Error = (e) => e,
  ): () => void {
    const onClose = () =>
      stream.destroy(as(Object.assign(new Error("SFTP connection closed"), { code: "ECONNRESET" })));
    s.client.once("close", onClose);
    return () => s.client.off("close", onClose);
  }

  /** Runs `fn` on a session, counting it as busy until `fn` settles. */
  private async onSession<T>(fn: (s: Session) => Promise<T>): Promise<T> {
    const s = await this.session();
    s.busy++;
    try {
      return await fn(s);
    } catch (e) {
      // A call that failed below SFTP (socket, timeout) may have left the session unusable.
      if (brokeSession(e)) this.drop(s);
      throw lostWith(e, s);
    } finally {
      s.busy--;
    }
  }

  private drop(s: Session): void {
    s.open = false;
    this.sessions = this.sessions.filter((x) => x !== s);
    s.client.end();
  }

  private async connect(): Promise<Session> {
    const host = await resolveHost(this.config.host, this.config.lookup);
    return new Promise<Session>((resolve, reject) => {
      const client = new (loadSsh2().Client)();
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
      const pinned = this.config.hostKey;
      client.on("error", (e) => {
        session.open = false;
        const seen = this.seenHostKey;
        reject(pinned && seen && seen !== pinned ? hostKeyMismatch(seen, pinned) : e);
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
        hostVerifier: (key: Buffer) => {
          this.seenHostKey = hostKeyFingerprint(key);
          return !pinned || this.seenHostKey === pinned;
        },
      });
    });
  }

  /** One SFTP call, with a timeout and storage errors. */
  private call<T>(
    path: string,
    fn: (sftp: SFTPWrapper, done: (e: Error | null | undefined, v?: T) => void) => void,
  ) {
    return this.onSession((s) =>
      withTimeout(
        new Promise<T>((resolve, reject) => fn(s.sftp, cb(resolve, reject))),
        this.timeoutMs,
        "SFTP call",
      ),
    ).catch((e) => {
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

  /** Many READs in flight (sftp-read.ts): one at a time would wait a round trip per 32 KiB. */
  async read(path: string, start: number, end: number): Promise<Readable> {
    const s = await this.session();
    s.busy++;
    const failure = (e: unknown) => {
      if (brokeSession(e)) this.drop(s);
      return remoteError(lostWith(e, s), path, "SFTP", codeOf(e) === NO_SUCH_FILE);
    };
    const stream = new SftpRangeReader(s.sftp, path, start, end, failure);
    const unwatch = this.failOnClose(s, stream, failure);
    stream.once("close", () => {
      unwatch();
      s.busy--;
    });
    return stream;
  }

  async write(path: string, body: Readable, _size: number | undefined, signal: AbortSignal): Promise<void> {
    const s = await this.session();
    s.busy++;
    // Many WRITEs in flight (sftp-write.ts): one at a time would wait a round trip per 32 KiB.
    const target = new SftpWriter(s.sftp, path);
    const unwatch = this.failOnClose(s, target);
    try {
      await pipeline(body, target, { signal });
    } catch (e) {
      // The server must have closed the handle before the caller deletes the temp file,
      // or a late close could bring it back.
      if (!target.closed && s.open)
        await withTimeout(once(target, "close"), this.timeoutMs, "SFTP close").catch(() => undefined);
      if (brokeSession(e) && !signal.aborted) this.drop(s);
      throw remoteError(lostWith(e, s), path, "SFTP", false);
    } finally {
      unwatch();
      s.busy--;
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

  serverIdentity(): string | null {
    return this.seenHostKey;
  }

  async close(): Promise<void> {
    for (const s of this.sessions) this.drop(s);
  }
}

export function createSftpDriver(config: RemoteLoginConfig): RemoteTreeDriver {
  return new RemoteTreeDriver("SFTP", new SftpFs(config), remoteRoot(config.folder), localParts(config));
}
