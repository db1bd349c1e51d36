/**
 * S3 endpoints are user-given URLs: private, loopback and metadata addresses
 * are refused unless STORAGE_ENDPOINT_ALLOW names the host, and an endpoint's
 * redirects are never followed.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { s3ConfigBody } from "../../../scripts/test-services/s3-config-body.mjs";
import { createTestApp, type TestApp } from "../support/test-app";

function listen(server: http.Server, host: string): Promise<number> {
  return new Promise((resolve) =>
    server.listen(0, host, () => resolve((server.address() as AddressInfo).port)),
  );
}

describe("storage endpoint addresses", () => {
  let t: TestApp;
  let token: string;
  // Must never be reached: counts every connection.
  const target = http.createServer((_q, r) => r.end("<Error/>"));
  let targetConnections = 0;
  let targetPort = 0;
  // An allow-listed "S3 endpoint" that answers everything with a redirect to the target.
  const redirecting = http.createServer((_q, r) =>
    r.writeHead(307, { location: `http://127.0.0.1:${targetPort}/` }).end(),
  );
  let redirectPort = 0;

  const body = (endpoint: string, name = "S3") =>
    s3ConfigBody(
      { endpoint, bucket: "bucket", accessKeyId: "test:tester", secretAccessKey: "testing" },
      name,
    );

  beforeAll(async () => {
    target.on("connection", () => targetConnections++);
    targetPort = await listen(target, "::");
    redirectPort = await listen(redirecting, "127.0.0.1");
    t = await createTestApp({ STORAGE_ENDPOINT_ALLOW: `lan-s3.invalid,127.0.0.1:${redirectPort}` });
    token = await t.adminToken();
  });
  afterAll(async () => {
    await t.close();
    await new Promise((r) => target.close(r));
    await new Promise((r) => redirecting.close(r));
  });

  it.each([
    () => `http://127.0.0.1:${targetPort}`,
    () => `http://localhost:${targetPort}`,
    () => `http://[::1]:${targetPort}`,
    () => `http://[::ffff:127.0.0.1]:${targetPort}`,
    () => `http://0x7f000001:${targetPort}`,
    () => "http://169.254.169.254",
    () => "http://10.0.0.8:9000",
    () => "http://192.168.1.20",
    () => "http://100.64.1.1",
  ])("refuses a private endpoint (%#) when saving", async (endpoint) => {
    const res = await t.request("POST", "/api/s3-configs", { token, body: body(endpoint()) });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, error: "storage_endpoint_not_allowed" });
    expect(res.body.message).toContain("STORAGE_ENDPOINT_ALLOW");
    expect(targetConnections).toBe(0);
  });

  it("refuses changing an existing config's endpoint to a private address", async () => {
    const created = await t.request("POST", "/api/s3-configs", {
      token,
      body: body("https://s3.example.com", "public"),
    });
    expect(created.status).toBe(201);
    const res = await t.request("PUT", `/api/s3-configs/${created.body.data.id}`, {
      token,
      body: { endpoint_url: "http://169.254.169.254" },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("storage_endpoint_not_allowed");
  });

  it("accepts allow-listed hosts, and a stored private endpoint is refused on use, not connected to", async () => {
    const lan = await t.request("POST", "/api/s3-configs", {
      token,
      body: body("http://lan-s3.invalid:9000", "lan"),
    });
    expect(lan.status).toBe(201);
    // A row written before this rule (or by hand) is still refused when a driver would connect.
    const id = lan.body.data.id;
    await t.ctx.db
      .updateTable("storage_configs")
      .set({ endpoint_url: `http://127.0.0.1:${targetPort}`, updated_at: new Date().toISOString() })
      .where("id", "=", id)
      .execute();
    const test = await t.request("POST", `/api/s3-configs/${id}/test`, { token });
    expect(test.status).toBe(400);
    expect(test.body.error).toBe("storage_endpoint_not_allowed");
    // A name is checked when each connection resolves it (as when DNS changes after saving).
    await t.ctx.db
      .updateTable("storage_configs")
      .set({
        endpoint_url: `http://localhost:${targetPort}`,
        updated_at: new Date(Date.now() + 1000).toISOString(),
      })
      .where("id", "=", id)
      .execute();
    const byName = await t.request("POST", `/api/s3-configs/${id}/test`, { token });
    expect(byName.body.data.success).toBe(false);
    expect(byName.body.data.result.write.error).toContain("loopback");
    expect(targetConnections).toBe(0);
  });

  it("never follows a redirect from an S3 endpoint", async () => {
    const created = await t.request("POST", "/api/s3-configs", {
      token,
      body: body(`http://127.0.0.1:${redirectPort}`, "redirecting"),
    });
    expect(created.status).toBe(201);
    const res = await t.request("POST", `/api/s3-configs/${created.body.data.id}/test`, { token });
    expect(res.status).toBe(200);
    expect(res.body.data.success).toBe(false);
    expect(targetConnections).toBe(0);
  });
});
