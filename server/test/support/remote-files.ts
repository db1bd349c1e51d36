/**
 * Real HTTP servers on loopback for URL-upload tests: `remote` plays a file
 * host the tests allow through URL_FETCH_ALLOW (names, sizes, refused HEAD,
 * chunked and endless bodies, a redirect to a private address), `target` is
 * the private address that must never see a connection.
 */
import { createHash, randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { createTestApp, type TestApp } from "./test-app";

export const MiB = 1024 * 1024;
export const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");

export function listen(server: http.Server, host: string): Promise<number> {
  return new Promise((resolve) =>
    server.listen(0, host, () => resolve((server.address() as AddressInfo).port)),
  );
}

export interface RemoteFiles {
  /** `http://127.0.0.1:<port>` of the file host. */
  base: string;
  /** URL_FETCH_ALLOW entry for the file host. */
  allowEntry: string;
  /** Served at /files/report.bin, named 报告.bin by Content-Disposition. */
  report: Buffer;
  /** Served at /files/eleven.bin (11 MiB + 7), named by its path. */
  eleven: Buffer;
  /** Request headers the file host received, in order. */
  seenHeaders: http.IncomingHttpHeaders[];
  /** How many /slow responses were closed (the client went away). */
  slowClosed(): number;
  /** Port of the private server, and how many connections it accepted. */
  targetPort: number;
  targetConnections(): number;
  /** Ends endless responses still running. */
  endSlow(): void;
  close(): Promise<void>;
}

/** A test app whose URL fetches may reach a fresh file host; `close` stops both. */
export async function startAppWithRemoteFiles(): Promise<{
  t: TestApp;
  token: string;
  remote: RemoteFiles;
  close(): Promise<void>;
}> {
  const remote = await startRemoteFiles();
  const t = await createTestApp({ URL_FETCH_ALLOW: remote.allowEntry });
  return {
    t,
    remote,
    token: await t.adminToken(),
    close: async () => {
      await t.close();
      await remote.close();
    },
  };
}

export async function startRemoteFiles(): Promise<RemoteFiles> {
  const report = randomBytes(3 * MiB + 123);
  const eleven = randomBytes(11 * MiB + 7);
  const seenHeaders: http.IncomingHttpHeaders[] = [];
  const slow = new Set<http.ServerResponse>();
  let slowClosed = 0;
  let targetConnections = 0;
  let targetPort = 0;

  const sendFile = (req: http.IncomingMessage, res: http.ServerResponse, body: Buffer, headers: object) => {
    res.writeHead(200, { ...headers, "content-length": String(body.length) });
    res.end(req.method === "HEAD" ? undefined : body);
  };

  const remote = http.createServer((req, res) => {
    seenHeaders.push(req.headers);
    const url = new URL(req.url ?? "/", "http://x");
    switch (url.pathname) {
      case "/files/report.bin":
        return sendFile(req, res, report, {
          "content-type": "application/x-custom",
          "content-disposition": `attachment; filename="ignored.bin"; filename*=UTF-8''%E6%8A%A5%E5%91%8A.bin`,
          "last-modified": "Wed, 21 Oct 2026 07:28:00 GMT",
          "accept-ranges": "bytes",
        });
      case "/files/eleven.bin":
        return sendFile(req, res, eleven, { "content-type": "video/mp4" });
      case "/no-head/photo.png":
        if (req.method === "HEAD") return void res.writeHead(405).end();
        res.writeHead(206, { "content-type": "image/png", "content-range": "bytes 0-0/4096" });
        return void res.end(Buffer.alloc(1));
      case "/big":
        return sendFile(req, res, Buffer.alloc(5 * MiB), {});
      case "/big-chunked": {
        res.writeHead(200, { "content-type": "application/octet-stream" });
        for (let i = 0; i < 20; i++) res.write(Buffer.alloc(256 * 1024));
        return void res.end();
      }
      case "/slow": {
        res.writeHead(200, { "content-type": "application/octet-stream" });
        slow.add(res);
        const timer = setInterval(() => res.write(Buffer.alloc(16 * 1024)), 20);
        res.on("close", () => {
          clearInterval(timer);
          slowClosed++;
        });
        return;
      }
      case "/to-private":
        return void res.writeHead(302, { location: `http://127.0.0.1:${targetPort}/secret` }).end();
      case "/page.html":
        return void res.writeHead(200, { "content-type": "text/html" }).end("<script>alert(1)</script>");
      default:
        res.writeHead(404).end();
    }
  });
  const target = http.createServer((_q, r) => r.end("secret"));
  target.on("connection", () => targetConnections++);

  const endSlow = () => {
    for (const res of slow) res.destroy();
    slow.clear();
  };

  const port = await listen(remote, "127.0.0.1");
  // Dual stack: 127.0.0.1 and ::1 both reach it, so either kind of leak is counted.
  targetPort = await listen(target, "::");
  return {
    base: `http://127.0.0.1:${port}`,
    allowEntry: `127.0.0.1:${port}`,
    report,
    eleven,
    seenHeaders,
    slowClosed: () => slowClosed,
    targetPort,
    targetConnections: () => targetConnections,
    endSlow,
    async close() {
      endSlow();
      await new Promise((r) => remote.close(r));
      await new Promise((r) => target.close(r));
    },
  };
}

/** The bytes stored for a file share, read back from its storage. */
export async function storedShareBytes(t: TestApp, fileId: string): Promise<Buffer> {
  const row = await t.ctx.db
    .selectFrom("files")
    .selectAll()
    .where("id", "=", fileId)
    .executeTakeFirstOrThrow();
  const { driver } = await t.ctx.storageConfigs.driverById(row.storage_config_id!);
  const chunks: Buffer[] = [];
  for await (const c of (await driver.read(row.storage_path)).body) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}
