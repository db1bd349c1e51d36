/**
 * WebDAV storage (Nextcloud, ownCloud, a NAS, another ClipShare's /dav)
 * through the `webdav` client. HTTP keep-alive agents are the connection pool
 * (bounded sockets); ranges are HTTP Range requests; the server copies and
 * moves (COPY/MOVE) and deletes whole trees (DELETE) itself.
 */
import { Agent as HttpAgent } from "node:http";
import { Agent as HttpsAgent } from "node:https";
import type { Readable } from "node:stream";
import type { FileStat, WebDAVClient } from "webdav";
import { readAhead } from "../streams";
import {
  localParts,
  type RemoteFs,
  type RemoteSettings,
  type RemoteStat,
  RemoteTreeDriver,
  remoteError,
  remoteRoot,
} from "./remote-tree";

/** A WebDAV tree; `folder` is below the URL (defaults: 8 sockets, 30 s per request or silent socket). */
export interface WebdavConfig extends RemoteSettings {
  /** Base URL of the WebDAV tree, e.g. https://cloud.example.com/remote.php/dav/files/alice/ */
  url: string;
  /** Certificates trusted for https (default: the system's). */
  ca?: string[];
}

const isMissing = (e: unknown) => {
  const status = (e as { status?: number } | null)?.status;
  // 409 Conflict: a parent is missing or is a file.
  return status === 404 || status === 409;
};

/** In Node the client's responses carry a Node stream as body (node-fetch). */
const bodyOf = (res: unknown) => (res as { body: Readable | null }).body;

function statOf(f: FileStat): RemoteStat {
  const modified = f.lastmod ? new Date(f.lastmod) : null;
  return {
    isDirectory: f.type === "directory",
    size: f.size,
    modified: modified && !Number.isNaN(modified.getTime()) ? modified : null,
    etag: f.etag ? f.etag.replace(/^W\//, "").replace(/^"(.*)"$/, "$1") : null,
  };
}

class WebdavFs implements RemoteFs {
  /** The client, made on first use: the `webdav` package is loaded only by servers that use it. */
  private readonly client: () => Promise<WebDAVClient>;
  private readonly agents: (HttpAgent | HttpsAgent)[];
  private readonly timeoutMs: number;

  constructor(config: WebdavConfig) {
    this.timeoutMs = config.timeoutMs ?? 30_000;
    const agentOptions = {
      keepAlive: true,
      maxSockets: config.maxConnections ?? 8,
      timeout: this.timeoutMs,
      ...(config.lookup ? { lookup: config.lookup } : {}),
    };
    const httpsAgent = new HttpsAgent({ ...agentOptions, ...(config.ca ? { ca: config.ca } : {}) });
    const httpAgent = new HttpAgent(agentOptions);
    this.agents = [httpAgent, httpsAgent];
    let client: Promise<WebDAVClient> | undefined;
    this.client = () => {
      client ??= import("webdav").then(({ createClient }) =>
        createClient(config.url, {
          username: config.username,
          password: config.password,
          httpAgent,
          httpsAgent,
        }),
      );
      return client;
    };
  }

  private async call<T>(
    path: string,
    fn: (client: WebDAVClient, signal: AbortSignal) => Promise<T>,
  ): Promise<T> {
    try {
      return await fn(await this.client(), AbortSignal.timeout(this.timeoutMs));
    } catch (e) {
      throw remoteError(e, path, "WebDAV", isMissing(e));
    }
  }

  async stat(path: string): Promise<RemoteStat | null> {
    try {
      return statOf((await this.call(path, (client, signal) => client.stat(path, { signal }))) as FileStat);
    } catch (e) {
      if ((e as { status?: number }).status === 404) return null;
      throw e;
    }
  }

  async list(dir: string) {
    const items = (await this.call(dir, (client, signal) =>
      client.getDirectoryContents(dir, { signal }),
    )) as FileStat[];
    return items.map((f) => ({ name: f.basename, stat: statOf(f) }));
  }

  async read(path: string, start: number, end: number): Promise<Readable> {
    const res = await this.call(path, (client) =>
      client.customRequest(path, { method: "GET", headers: { Range: `bytes=${start}-${end}` } }),
    );
    // A server that ignores Range answers 200 with the whole file: fine only when that is what was asked.
    if (res.status !== 206 && !(res.status === 200 && start === 0)) {
      bodyOf(res)?.destroy();
      throw remoteError(
        Object.assign(new Error(`GET answered HTTP ${res.status}`), { status: res.status }),
        path,
        "WebDAV",
        isMissing(res),
      );
    }
    const body = bodyOf(res);
    if (!body) throw remoteError(new Error("GET answered without a body"), path, "WebDAV", false);
    return readAhead(body);
  }

  async write(path: string, body: Readable, size: number | undefined, signal: AbortSignal): Promise<void> {
    await this.call(path, (client) =>
      client.putFileContents(path, body, {
        overwrite: true,
        contentLength: size ?? false,
        signal,
      }),
    );
  }

  async mkdir(path: string): Promise<void> {
    await this.call(path, (client, signal) => client.createDirectory(path, { signal }));
  }

  async removeFile(path: string): Promise<void> {
    await this.call(path, (client, signal) => client.deleteFile(path, { signal }));
  }

  removeDir(path: string): Promise<void> {
    return this.removeFile(path);
  }

  removeTree(path: string): Promise<void> {
    return this.removeFile(path);
  }

  async rename(from: string, to: string): Promise<void> {
    await this.call(from, (client) => client.moveFile(from, to, { overwrite: true }));
  }

  async copy(from: string, to: string): Promise<void> {
    await this.call(from, (client) => client.copyFile(from, to, { overwrite: false }));
  }

  async close(): Promise<void> {
    for (const agent of this.agents) agent.destroy();
  }
}

export function createWebdavDriver(config: WebdavConfig): RemoteTreeDriver {
  return new RemoteTreeDriver("WEBDAV", new WebdavFs(config), remoteRoot(config.folder), localParts(config));
}
