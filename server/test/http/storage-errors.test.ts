/**
 * A storage backend that misbehaves is reported in ClipShare's own words: an
 * endpoint that answers with garbage is a 502 `storage_error`, one that cannot
 * be reached a 503 `storage_unreachable` with Retry-After; the backend's and
 * its SDK's text stay in the log and in the admin's storage test. The broken
 * endpoint is a local HTTP server: real S3 servers do not fail on demand.
 */
import http from "node:http";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { s3ConfigBody } from "../../../scripts/test-services/s3-config-body.mjs";
import { createMount, type StorageUnderTest } from "../support/fs-helpers";
import { createTestApp, type TestApp } from "../support/test-app";

const GARBAGE = "<html>upstream exploded: SDK-UNFRIENDLY-TEXT</html>";

let t: TestApp;
let broken: http.Server;
let brokenPort: number;
let closedPort: number;
let token: string;

async function s3Storage(port: number): Promise<StorageUnderTest> {
  const res = await t.request("POST", "/api/s3-configs", {
    token,
    body: s3ConfigBody(
      {
        endpoint: `http://127.0.0.1:${port}`,
        bucket: "bucket",
        accessKeyId: "key",
        secretAccessKey: "secret",
      },
      `Broken ${port}`,
    ),
  });
  expect(res.status, res.text).toBe(201);
  return { configId: res.body.data.id, storageType: "S3", cleanup: async () => undefined };
}

beforeAll(async () => {
  broken = http.createServer((_req, res) => {
    res.writeHead(500, { "content-type": "text/html" });
    res.end(GARBAGE);
  });
  await new Promise<void>((resolve) => broken.listen(0, "127.0.0.1", resolve));
  brokenPort = (broken.address() as net.AddressInfo).port;
  // A port nothing listens on: taken, then released.
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  closedPort = (probe.address() as net.AddressInfo).port;
  await new Promise((resolve) => probe.close(resolve));
  t = await createTestApp({ STORAGE_ENDPOINT_ALLOW: `127.0.0.1:${brokenPort},127.0.0.1:${closedPort}` });
  token = await t.adminToken();
  await createMount(t, await s3Storage(brokenPort), "/broken");
  await createMount(t, await s3Storage(closedPort), "/down");
});
afterAll(async () => {
  await t.close();
  await new Promise((resolve) => broken.close(resolve));
});

describe("a storage that misbehaves", () => {
  it("answering garbage is a 502 in ClipShare's words, without the backend's text", async () => {
    const res = await t.request("GET", "/api/fs/list?path=/broken/", { token });
    expect(res.status, res.text).toBe(502);
    expect(res.body).toMatchObject({ success: false, error: "storage_error" });
    expect(res.body.message).toMatch(/^The storage answered with an error \(HTTP 500/);
    expect(res.text).not.toContain("SDK-UNFRIENDLY-TEXT");
    expect(res.text).not.toContain("Deserialization");
  });

  it("that cannot be reached is a 503 with Retry-After", async () => {
    const res = await t.request("GET", "/api/fs/list?path=/down/", { token });
    expect(res.status, res.text).toBe(503);
    expect(res.body).toMatchObject({ success: false, error: "storage_unreachable" });
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("the admin's storage test still shows what the backend said", async () => {
    const configs = await t.request("GET", "/api/s3-configs", { token });
    const id = (configs.body.data as Array<{ id: string; name: string }>).find(
      (c) => c.name === `Broken ${brokenPort}`,
    )!.id;
    const res = await t.request("POST", `/api/s3-configs/${id}/test`, { token });
    const write = res.body.data.result.write;
    expect(write.success).toBe(false);
    // The SDK's own name for the failure, not the sentence visitors get.
    expect(write.error).toBe("UnknownError");
  });
});
