/**
 * ClipShare's Node server (http/node-adapter) over a real socket, with a small
 * Hono app: plain answers written without Fetch objects, streamed bodies with
 * back-pressure, HEAD, clients that go away, bodies that fail part-way,
 * Set-Cookie lists, request bodies read by middleware, the already-sent marker
 * and request lines that make no URL.
 */
import http from "node:http";
import net from "node:net";
import { Hono } from "hono";
import { setCookie } from "hono/cookie";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fetchClasses } from "../../src/http/node-adapter/fetch-classes";
import { LightResponse, RESPONSE_ALREADY_SENT } from "../../src/http/node-adapter/response";
import { type NodeBindings, serve } from "../../src/http/node-adapter/serve";

const CHUNK = new Uint8Array(64 * 1024).fill(97);

/** What the stream routes did, for the tests to look at. */
const seen = { pulledBytes: 0, cancelled: false, aborted: false, plainAnswer: false };

const app = new Hono<{ Bindings: NodeBindings }>();
app.use("/edited/*", async (c, next) => {
  await next();
  c.res.headers.set("x-edited", "after");
});
app.get("/plain", (c) => {
  c.env.outgoing.setHeader("x-before", "node");
  c.env.outgoing.setHeader("x-both", "node");
  const res = new Response(JSON.stringify({ hello: "wörld" }), {
    status: 201,
    headers: { "content-type": "application/json", "x-both": "answer" },
  });
  seen.plainAnswer = LightResponse.plainOf(res) !== undefined;
  return res;
});
app.get("/edited/text", (c) => c.text("edited answer"));
app.get("/text", (c) => c.text("hello there"));
app.get("/stream", (c) => {
  seen.pulledBytes = 0;
  seen.cancelled = false;
  seen.aborted = false;
  c.req.raw.signal.addEventListener("abort", () => {
    seen.aborted = true;
  });
  const limit = Number(c.req.query("mb") ?? 0) * 1024 * 1024;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (limit && seen.pulledBytes >= limit) return controller.close();
      seen.pulledBytes += CHUNK.length;
      controller.enqueue(CHUNK);
    },
    cancel() {
      seen.cancelled = true;
    },
  });
  return new Response(body, { headers: { "content-type": "application/octet-stream" } });
});
app.get("/fails", () => {
  let sent = false;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent) return controller.error(new Error("disk went away"));
      sent = true;
      controller.enqueue(CHUNK);
    },
  });
  return new Response(body);
});
app.get("/cookies", (c) => {
  setCookie(c, "a", "1");
  setCookie(c, "b", "2");
  return c.json({ ok: true });
});
app.use("/echo", async (c, next) => {
  // A middleware that reads the body before the handler (Hono caches it for the handler).
  const body = (await c.req.json()) as { name?: string };
  c.header("x-name", body.name ?? "");
  await next();
});
app.post("/echo", async (c) => c.json({ echoed: await c.req.json() }));
app.post("/refuse", (c) => c.json({ error: "payload_too_large" }, 413));
app.get("/sent", (c) => {
  c.env.outgoing.writeHead(202, { "content-type": "text/plain" });
  c.env.outgoing.end("written by the route");
  return RESPONSE_ALREADY_SENT;
});

let server: http.Server;
let base: string;
let port: number;

beforeAll(async () => {
  server = serve(app.fetch as never, { port: 0, hostname: "127.0.0.1" });
  await new Promise<void>((r) => server.once("listening", () => r()));
  port = (server.address() as net.AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

/** A raw GET with Node's client, for what fetch() hides: pauses, cut responses, repeated headers. */
function get(path: string, method = "GET") {
  return new Promise<http.IncomingMessage>((resolve, reject) => {
    const req = http.request(`${base}${path}`, { method }, resolve);
    req.on("error", reject);
    req.end();
  });
}

async function readAll(res: http.IncomingMessage): Promise<string> {
  let text = "";
  for await (const chunk of res) text += chunk;
  return text;
}

const waitFor = async (check: () => boolean) => {
  for (let i = 0; i < 100 && !check(); i++) await new Promise((r) => setTimeout(r, 20));
};

describe("the Node server", () => {
  it("writes a plain answer as made, with Content-Length, over the headers set before the handler", async () => {
    const res = await get("/plain");
    const text = await readAll(res);
    expect(res.statusCode).toBe(201);
    expect(JSON.parse(text)).toEqual({ hello: "wörld" });
    expect(res.headers["content-type"]).toBe("application/json");
    expect(res.headers["content-length"]).toBe(String(Buffer.byteLength(text)));
    expect(res.headers["x-before"]).toBe("node");
    expect(res.headers["x-both"]).toBe("answer");
    expect(seen.plainAnswer).toBe(true);
  });

  it("keeps Content-Length when a middleware edits the answer's headers", async () => {
    const res = await get("/edited/text");
    expect(await readAll(res)).toBe("edited answer");
    expect(res.headers["x-edited"]).toBe("after");
    expect(res.headers["content-length"]).toBe("13");
    expect(res.headers["content-type"]).toBe("text/plain; charset=UTF-8");
  });

  it("answers HEAD with the GET answer's status and headers and no body", async () => {
    const res = await get("/text", "HEAD");
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("text/plain; charset=UTF-8");
    expect(await readAll(res)).toBe("");
  });

  it("streams a body, reading no further ahead than the client takes", async () => {
    const res = await get("/stream?mb=32");
    res.pause();
    await new Promise((r) => setTimeout(r, 300));
    // Socket buffers on both sides hold a few MB at most, far from the 32 MB the route would make.
    expect(seen.pulledBytes).toBeLessThan(8 * 1024 * 1024);
    res.resume();
    const received = (await readAll(res)).length;
    expect(received).toBe(32 * 1024 * 1024);
    expect(res.headers["transfer-encoding"]).toBe("chunked");
  });

  it("cancels the body and aborts the request signal when the client goes away mid-stream", async () => {
    const res = await get("/stream");
    await new Promise((r) => res.once("data", r));
    res.destroy();
    await waitFor(() => seen.cancelled && seen.aborted);
    expect(seen.cancelled).toBe(true);
    expect(seen.aborted).toBe(true);
  });

  it("cuts the connection when a body fails part-way, so the answer does not look complete", async () => {
    const res = await get("/fails");
    expect(res.statusCode).toBe(200);
    const outcome = await new Promise<string>((resolve) => {
      res.on("error", () => resolve("error"));
      res.on("aborted", () => resolve("aborted"));
      res.on("end", () => resolve(res.complete ? "complete" : "cut"));
      res.resume();
    });
    expect(outcome).not.toBe("complete");
  });

  it("sends each cookie on a Set-Cookie line of its own", async () => {
    const res = await get("/cookies");
    await readAll(res);
    expect(res.headers["set-cookie"]).toEqual(["a=1; Path=/", "b=2; Path=/"]);
  });

  it("gives the handler a request body a middleware has already read", async () => {
    const res = await fetch(`${base}/echo`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "clip" }),
    });
    expect(res.headers.get("x-name")).toBe("clip");
    expect(await res.json()).toEqual({ echoed: { name: "clip" } });
  });

  it("lets a client that is still sending a body nobody reads get the answer", async () => {
    const answer = await new Promise<number | undefined>((resolve, reject) => {
      const req = http.request(`${base}/refuse`, { method: "POST" }, (res) => {
        res.resume();
        resolve(res.statusCode);
      });
      req.on("error", reject);
      req.write(Buffer.alloc(1024 * 1024));
      setTimeout(() => req.end(Buffer.alloc(1024 * 1024)), 100);
    });
    expect(answer).toBe(413);
  });

  it("writes nothing more for a route that answered on Node's response itself", async () => {
    const res = await get("/sent");
    expect(res.statusCode).toBe(202);
    expect(await readAll(res)).toBe("written by the route");
  });

  it("answers 400 to a request path with a backslash or a request without Host", async () => {
    const raw = (request: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = net.connect(port, "127.0.0.1", () => socket.end(request));
        let text = "";
        socket.on("data", (d) => {
          text += d;
        });
        socket.on("end", () => resolve(text));
        socket.on("error", reject);
      });
    expect(await raw("GET /files\\..\\secret HTTP/1.1\r\nHost: localhost\r\n\r\n")).toMatch(
      /^HTTP\/1\.1 400 /,
    );
    expect(await raw("GET /api/health HTTP/1.0\r\n\r\n")).toMatch(/^HTTP\/1\.1 400 /);
    expect(await raw("GET /api/health HTTP/1.1\r\nHost: evil.example/x?\r\n\r\n")).toMatch(
      /^HTTP\/1\.1 400 /,
    );
  });
});

describe("the global Response while the Node server runs", () => {
  it("is ClipShare's, and instanceof holds for its answers and for Node's own", () => {
    expect(globalThis.Response).toBe(LightResponse);
    const light = new Response("hi", { headers: { "x-a": "1" } });
    expect(LightResponse.plainOf(light)).toBeDefined();
    expect(light instanceof Response).toBe(true);
    const real = new (fetchClasses().Response)("hi");
    expect(real instanceof Response).toBe(true);
    expect({ status: 200 } instanceof Response).toBe(false);
  });

  it("builds Node's Response only when something reads past the plain parts", async () => {
    const light = new Response("hi", { status: 202, headers: { "x-a": "1" } });
    expect(light.status).toBe(202);
    expect(LightResponse.plainOf(light)).toBeDefined();
    expect(light.headers.get("x-a")).toBe("1");
    expect(LightResponse.plainOf(light)).toBeUndefined();
    expect(await light.text()).toBe("hi");
    const stream = new Response(new ReadableStream());
    expect(LightResponse.plainOf(stream)).toBeUndefined();
    expect(() => new Response(null, { status: 99 })).toThrow(RangeError);
    expect(() => new Response("body", { status: 204 })).toThrow(TypeError);
  });
});
