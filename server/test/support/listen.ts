/**
 * A test app behind the real Node server (`serveApp`, as main.ts starts it) on
 * a free loopback port, for tests that need a socket: streamed bodies,
 * clients that go away, a proxy in front.
 */
import type { AddressInfo } from "node:net";
import { serveApp } from "../../src/http/node-server";
import type { TestApp } from "./test-app";

export async function listenTestApp(t: TestApp): Promise<{ base: string; close(): Promise<void> }> {
  const server = serveApp(t.app, { port: 0, hostname: "127.0.0.1", log: t.ctx.log });
  await new Promise<void>((r) => server.once("listening", () => r()));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
