/**
 * WebDAV, SFTP and FTP(S) storage configs through the admin API: credentials
 * sealed at rest and never shown, endpoints checked against
 * STORAGE_ENDPOINT_ALLOW and against the type's URL scheme, and the test
 * button's checks with a hint when the login is wrong; a file share stored
 * there and the mount served through ClipShare's own WebDAV.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMount } from "../support/fs-helpers";
import { describeRemote, type RemoteBackend, remoteConfigBody } from "../support/remote-env";
import { ADMIN_PASSWORD, ADMIN_USERNAME, createTestApp, type TestApp } from "../support/test-app";

let t: TestApp;
let token: string;

beforeAll(async () => {
  t = await createTestApp();
  token = await t.adminToken();
});
afterAll(async () => {
  await t?.close();
});

for (const backend of ["WEBDAV", "SFTP", "FTP", "FTPS"] as RemoteBackend[]) {
  describeRemote(backend, `a ${backend} storage config`, (server) => {
    it("seals the credentials, never shows the password and passes the storage test", async () => {
      const body = remoteConfigBody(server, `${backend} config`, `configs-${backend.toLowerCase()}`);
      const created = await t.request("POST", "/api/s3-configs", { token, body });
      expect(created.status, created.text).toBe(201);
      expect(created.body.data).toMatchObject({ storage_type: server.storageType, has_credentials: true });
      expect(created.text).not.toContain(server.password);
      const row = await t.ctx.db
        .selectFrom("storage_configs")
        .selectAll()
        .where("id", "=", created.body.data.id)
        .executeTakeFirstOrThrow();
      expect(row.secret_access_key_enc).not.toContain(server.password);
      expect(row.access_key_id_enc).not.toContain(server.username);

      const tested = await t.request("POST", `/api/s3-configs/${created.body.data.id}/test`, { token });
      expect(tested.status, tested.text).toBe(200);
      expect(tested.body.data.success, tested.text).toBe(true);
      expect(tested.body.data.result).toMatchObject({
        write: { success: true },
        read: { success: true },
        list: { success: true },
        presign: { success: true, skipped: true },
      });
    });

    it("stores a file share and serves a mount through ClipShare's WebDAV", async () => {
      const body = remoteConfigBody(
        server,
        `${backend} shares`,
        // The test servers outlive one run (SQLite, then PostgreSQL): a folder of this run's own.
        `shares-${backend.toLowerCase()}-${randomBytes(4).toString("hex")}`,
      );
      const created = await t.request("POST", "/api/s3-configs", { token, body });
      expect(created.status, created.text).toBe(201);
      const configId = created.body.data.id as string;
      const bytes = randomBytes(300_000);
      const up = await t.request("PUT", `/api/upload-direct/remote.bin?s3_config_id=${configId}`, {
        token,
        rawBody: bytes,
      });
      expect(up.status, up.text).toBe(201);
      expect(up.body.data.storage_type).toBe(server.storageType);
      const pub = await t.request("GET", `/api/public/files/${up.body.data.slug}`);
      const dl = await t.app.request(pub.body.data.downloadUrl);
      expect(Buffer.from(await dl.arrayBuffer()).equals(bytes)).toBe(true);
      const part = await t.app.request(pub.body.data.previewUrl, { headers: { range: "bytes=100-199" } });
      expect(part.status).toBe(206);
      expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(100, 200))).toBe(true);

      const mountPath = `/dav-${backend.toLowerCase()}`;
      await createMount(
        t,
        { configId, storageType: server.storageType, cleanup: async () => undefined },
        mountPath,
      );
      const basic = `Basic ${Buffer.from(`${ADMIN_USERNAME}:${ADMIN_PASSWORD}`).toString("base64")}`;
      const put = await t.app.request(`/dav${mountPath}/via-dav.txt`, {
        method: "PUT",
        headers: { authorization: basic },
        body: "through ClipShare's WebDAV",
      });
      expect(put.status).toBe(201);
      const got = await t.app.request(`/dav${mountPath}/via-dav.txt`, { headers: { authorization: basic } });
      expect(await got.text()).toBe("through ClipShare's WebDAV");
    });

    it("reports a wrong password with a hint instead of failing the request", async () => {
      const body = {
        ...remoteConfigBody(server, `${backend} wrong login`, "wrong-login"),
        secret_access_key: "not-the-password",
      };
      const created = await t.request("POST", "/api/s3-configs", { token, body });
      expect(created.status, created.text).toBe(201);
      const tested = await t.request("POST", `/api/s3-configs/${created.body.data.id}/test`, { token });
      expect(tested.status, tested.text).toBe(200);
      expect(tested.body.data.success).toBe(false);
      expect(tested.body.data.result.write).toMatchObject({ success: false });
      expect(tested.body.data.result.write.hint, tested.text).toMatch(/user name or password/);
      await t.request("DELETE", `/api/s3-configs/${created.body.data.id}`, { token });
    });
  });
}

describe("remote storage endpoints", () => {
  it("refuses a scheme that does not fit the type", async () => {
    const res = await t.request("POST", "/api/s3-configs", {
      token,
      body: {
        storage_type: "SFTP",
        name: "wrong scheme",
        endpoint_url: "https://files.example.com/",
        access_key_id: "u",
        secret_access_key: "p",
      },
    });
    expect(res.status, res.text).toBe(400);
    expect(res.body).toMatchObject({ error: "validation_failed" });
    expect(res.body.message).toMatch(/sftp:\/\//);
  });

  it("refuses a loopback server that STORAGE_ENDPOINT_ALLOW does not name", async () => {
    const strict = await createTestApp({ STORAGE_ENDPOINT_ALLOW: "" });
    try {
      for (const endpoint of ["sftp://127.0.0.1:2222", "ftp://127.0.0.1", "http://127.0.0.1:8080/dav/"]) {
        const type = endpoint.startsWith("sftp") ? "SFTP" : endpoint.startsWith("ftp") ? "FTP" : "WEBDAV";
        const res = await strict.request("POST", "/api/s3-configs", {
          token: await strict.adminToken(),
          body: {
            storage_type: type,
            name: `private ${type}`,
            endpoint_url: endpoint,
            access_key_id: "u",
            secret_access_key: "p",
          },
        });
        expect(res.status, res.text).toBe(400);
        expect(res.body).toMatchObject({ error: "storage_endpoint_not_allowed" });
      }
    } finally {
      await strict.close();
    }
  });
});
