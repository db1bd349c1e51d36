import { spawn } from "node:child_process";
import { once } from "node:events";
import http from "node:http";
import { type AddressInfo, connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { refusedAddressReason } from "./address-policy";
import { HostAllowList, parseHostEntry, parseHostList } from "./host-allow-list";
import { MAX_REDIRECTS, SafeFetcher } from "./safe-fetch";
import type { Resolver } from "./url-guard";

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(Buffer.from(c as Buffer));
  return Buffer.concat(chunks);
}

function listen(server: http.Server, host: string): Promise<number> {
  return new Promise((resolve) =>
    server.listen(0, host, () => resolve((server.address() as AddressInfo).port)),
  );
}

describe("address policy", () => {
  it.each([
    ["127.0.0.1", "loopback"],
    ["127.255.0.9", "loopback"],
    ["10.1.2.3", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.168.0.10", "private"],
    ["100.64.0.1", "shared (CGNAT)"],
    ["100.100.100.200", "shared (CGNAT)"],
    ["169.254.169.254", "link-local"],
    ["0.0.0.0", "unspecified"],
    ["224.0.0.1", "multicast"],
    ["255.255.255.255", "reserved or broadcast"],
    ["192.0.2.7", "documentation"],
    ["198.18.0.1", "benchmarking"],
    ["::1", "loopback"],
    ["::", "unspecified"],
    ["::ffff:127.0.0.1", "loopback (embedded IPv4 127.0.0.1)"],
    ["::ffff:7f00:1", "loopback (embedded IPv4 127.0.0.1)"],
    ["::ffff:a9fe:a9fe", "link-local (embedded IPv4 169.254.169.254)"],
    ["::127.0.0.1", "loopback (embedded IPv4 127.0.0.1)"],
    ["64:ff9b::a00:1", "private (embedded IPv4 10.0.0.1)"],
    ["2002:c0a8:0101::1", "private (embedded IPv4 192.168.1.1)"],
    ["fd00:ec2::254", "unique local (private)"],
    ["fe80::1", "link-local"],
    ["ff02::1", "multicast"],
    ["2001:db8::1", "documentation"],
    ["::ffff:0:7f00:1", "IPv4-translated"],
    ["::ffff:0:8.8.8.8", "IPv4-translated"],
    ["64:ff9b:1::a00:1", "local NAT64"],
  ])("refuses %s (%s)", (address, reason) => {
    expect(refusedAddressReason(address)).toBe(reason);
  });

  it.each([
    "93.184.216.34",
    "8.8.8.8",
    "172.32.0.1",
    "100.128.0.1",
    "2606:4700::1111",
    "::ffff:8.8.8.8",
    "64:ff9b::808:808",
  ])("allows the public address %s", (address) => {
    expect(refusedAddressReason(address)).toBeNull();
  });

  it("parses allow-list entries in the normalized form URLs use", () => {
    expect(parseHostList(" files.lan , 0x7f000001:9000,[::1]:80")).toEqual([
      { host: "files.lan", port: null },
      { host: "127.0.0.1", port: 9000 },
      { host: "[::1]", port: 80 },
    ]);
    expect(() => parseHostEntry("http://x")).toThrow(/not a host/);
    expect(() => parseHostEntry("x:70000")).toThrow(/invalid port/);
    const list = new HostAllowList(parseHostList("files.lan,127.0.0.1:9000"));
    expect(list.allows(new URL("http://FILES.lan:1234/x"))).toBe(true);
    expect(list.allows(new URL("http://127.1:9000/"))).toBe(true);
    expect(list.allows(new URL("http://127.0.0.1:9001/"))).toBe(false);
  });
});

describe("SafeFetcher", () => {
  // The target every refused URL points at: it must never see a connection.
  const target = http.createServer((_req, res) => res.end("secret"));
  let targetConnections = 0;
  let targetPort = 0;
  // An allowed server (by allow-list) that redirects, streams and stalls on demand.
  const allowed = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    if (url.pathname === "/to") {
      res.writeHead(302, { location: url.searchParams.get("u") ?? "/" }).end();
    } else if (url.pathname === "/bad-redirect") {
      res.writeHead(301, { location: "http://[not-an-address/" }).end();
    } else if (url.pathname === "/loop") {
      const n = Number(url.searchParams.get("n") ?? "0");
      res.writeHead(307, { location: `/loop?n=${n + 1}` }).end();
    } else if (url.pathname === "/chunked") {
      res.writeHead(200, { "content-type": "application/octet-stream" });
      res.write(Buffer.alloc(600));
      res.end(Buffer.alloc(600));
    } else if (url.pathname === "/stall") {
      res.writeHead(200, { "content-length": "10" });
      res.write("12345"); // and never the rest
    } else {
      const body = `hello from ${url.pathname}${url.search}`;
      res.writeHead(200, { "content-type": "text/plain", "content-length": Buffer.byteLength(body) });
      res.end(body);
    }
  });
  let allowedPort = 0;
  let fetcher: SafeFetcher;
  // Test names resolve through this table instead of DNS.
  const names: Record<string, { address: string; family: number }[]> = {
    "rebind.test": [{ address: "127.0.0.1", family: 4 }],
    "mixed.test": [
      { address: "93.184.216.34", family: 4 },
      { address: "10.0.0.5", family: 4 },
    ],
    "metadata.test": [{ address: "fd00:ec2::254", family: 6 }],
  };
  const resolver: Resolver = async (host) => {
    if (names[host]) return names[host]!;
    if (host === "localhost") return [{ address: "127.0.0.1", family: 4 }];
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
  };

  beforeAll(async () => {
    target.on("connection", () => targetConnections++);
    // Dual stack: both 127.0.0.1 and ::1 reach it, so either kind of leak would be counted.
    targetPort = await listen(target, "::");
    allowedPort = await listen(allowed, "127.0.0.1");
    fetcher = new SafeFetcher({
      allow: new HostAllowList(parseHostList(`127.0.0.1:${allowedPort}`)),
      resolve: resolver,
      idleTimeoutMs: 300,
    });
  });
  afterAll(async () => {
    await new Promise((r) => target.close(r));
    await new Promise((r) => allowed.close(r));
  });

  const corpus = () => [
    `http://127.0.0.1:${targetPort}/`,
    `http://localhost:${targetPort}/`,
    `http://127.1:${targetPort}/`,
    `http://0x7f000001:${targetPort}/`,
    `http://2130706433:${targetPort}/`,
    `http://0177.0.0.1:${targetPort}/`,
    `http://[::1]:${targetPort}/`,
    `http://[::ffff:127.0.0.1]:${targetPort}/`,
    `http://[::ffff:7f00:1]:${targetPort}/`,
    `http://rebind.test:${targetPort}/`,
    `http://mixed.test:${targetPort}/`,
    "http://metadata.test/latest/meta-data/",
    "http://169.254.169.254/latest/meta-data/",
    "http://10.0.0.1/",
    "http://172.16.5.4/",
    "http://192.168.1.1/",
    "http://100.64.0.1/",
    "http://0.0.0.0/",
    `http://127.0.0.1:${allowedPort}/to?u=${encodeURIComponent(`http://127.0.0.1:${targetPort}/`)}`,
    `http://127.0.0.1:${allowedPort}/to?u=${encodeURIComponent(`http://localhost:${targetPort}/`)}`,
    `http://127.0.0.1:${allowedPort}/to?u=${encodeURIComponent(`http://[::1]:${targetPort}/`)}`,
  ];

  it("refuses every private, loopback and metadata address without a single connection", async () => {
    for (const url of corpus()) {
      await expect(fetcher.open(url), url).rejects.toMatchObject({ status: 400, error: "url_not_allowed" });
    }
    await new Promise((r) => setTimeout(r, 50));
    expect(targetConnections).toBe(0);
  });

  it("refuses other schemes, credentials and garbage with clear errors", async () => {
    await expect(fetcher.open("ftp://example.com/x")).rejects.toMatchObject({
      status: 400,
      message: "Only HTTP/HTTPS URLs are supported",
    });
    await expect(fetcher.open("file:///etc/passwd")).rejects.toMatchObject({ status: 400 });
    await expect(fetcher.open("not a url")).rejects.toMatchObject({ message: "Invalid URL format" });
    await expect(fetcher.open(`http://u:p@127.0.0.1:${allowedPort}/`)).rejects.toMatchObject({
      error: "invalid_url",
    });
    await expect(fetcher.open("http://no-such-host.test/")).rejects.toMatchObject({
      status: 400,
      error: "url_unreachable",
    });
  });

  it("fetches an allow-listed host, following redirects, and sends none of the caller's credentials", async () => {
    let seen: http.IncomingHttpHeaders = {};
    allowed.once("request", (req) => {
      seen = req.headers;
    });
    const res = await fetcher.openOk(`http://127.0.0.1:${allowedPort}/to?u=%2Fdone%3Fa%3D1`);
    expect(res.status).toBe(200);
    expect(res.url.pathname).toBe("/done");
    expect((await readAll(res.body)).toString()).toBe("hello from /done?a=1");
    expect(seen.cookie).toBeUndefined();
    expect(seen.authorization).toBeUndefined();
  });

  it("resolves a name once per connection and connects to exactly that answer", async () => {
    const calls: string[] = [];
    const f = new SafeFetcher({
      allow: new HostAllowList(parseHostList(`files.lan:${allowedPort}`)),
      resolve: async (host) => {
        calls.push(host);
        return [{ address: "127.0.0.1", family: 4 }];
      },
    });
    const res = await f.openOk(`http://files.lan:${allowedPort}/to?u=%2Fnext`);
    expect((await readAll(res.body)).toString()).toBe("hello from /next");
    // Two hops (the redirect and its target), one resolution each: nothing asked twice per connection.
    expect(calls).toEqual(["files.lan", "files.lan"]);
  });

  it("answers a redirect to a malformed address with a clear error", async () => {
    await expect(fetcher.open(`http://127.0.0.1:${allowedPort}/bad-redirect`)).rejects.toMatchObject({
      status: 400,
      message: "Cannot access URL: the server redirected to an invalid address",
    });
  });

  it(`stops after ${MAX_REDIRECTS} redirects`, async () => {
    await expect(fetcher.open(`http://127.0.0.1:${allowedPort}/loop`)).rejects.toMatchObject({
      error: "too_many_redirects",
    });
  });

  it("enforces the size limit from Content-Length up front and while streaming", async () => {
    const tooLarge = (n: number | null) => `too large ${n}`;
    await expect(
      fetcher.open(`http://127.0.0.1:${allowedPort}/abc`, { maxBytes: 5, tooLarge }),
    ).rejects.toMatchObject({ status: 413, message: expect.stringContaining("too large 15") });
    const res = await fetcher.openOk(`http://127.0.0.1:${allowedPort}/chunked`, { maxBytes: 1000, tooLarge });
    expect(res.contentLength).toBeNull();
    await expect(readAll(res.body)).rejects.toMatchObject({ status: 413 });
  });

  it("ends a transfer that stalls with a timeout error", async () => {
    const res = await fetcher.openOk(`http://127.0.0.1:${allowedPort}/stall`);
    await expect(readAll(res.body)).rejects.toMatchObject({ status: 504, error: "url_timeout" });
  });

  it("gives up on a connection that is never accepted", async () => {
    // A listening socket that never accepts, its queue filled: further SYNs go unanswered, as with a
    // firewalled host. (python3 is a build requirement already; Node always accepts.)
    const py = spawn("python3", [
      "-c",
      "import socket,time\ns=socket.socket()\ns.bind(('127.0.0.1',0))\ns.listen(0)\nprint(s.getsockname()[1],flush=True)\ntime.sleep(60)",
    ]);
    const fillers: Socket[] = [];
    try {
      const port = Number(String(await once(py.stdout, "data")).trim());
      for (let i = 0; i < 4; i++) fillers.push(connect(port, "127.0.0.1").on("error", () => undefined));
      await new Promise((r) => setTimeout(r, 200));
      const f = new SafeFetcher({
        allow: new HostAllowList(parseHostList(`127.0.0.1:${port}`)),
        connectTimeoutMs: 300,
      });
      const started = Date.now();
      await expect(f.open(`http://127.0.0.1:${port}/`)).rejects.toMatchObject({
        status: 504,
        error: "url_timeout",
        message: expect.stringContaining("no connection"),
      });
      expect(Date.now() - started).toBeLessThan(3000);
    } finally {
      for (const s of fillers) s.destroy();
      py.kill();
    }
  });

  it("reports an upstream error status", async () => {
    const notFound = http.createServer((_q, r) => r.writeHead(404).end());
    const port = await listen(notFound, "127.0.0.1");
    const f = new SafeFetcher({ allow: new HostAllowList(parseHostList(`127.0.0.1:${port}`)) });
    await expect(f.openOk(`http://127.0.0.1:${port}/x`)).rejects.toMatchObject({
      status: 502,
      message: "Server returned error status: 404",
    });
    await new Promise((r) => notFound.close(r));
  });
});
