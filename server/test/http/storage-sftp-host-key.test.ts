/**
 * SFTP host-key pinning: the storage test reports the server's SHA-256
 * fingerprint; pinned, that key is accepted; any other pinned key is refused
 * with a clear error before a password is sent, in the test and on every
 * request; malformed fingerprints and pins on other types are 400s.
 */
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createMount, list } from "../support/fs-helpers";
import { describeRemote, remoteConfigBody, remoteTestServer } from "../support/remote-env";
import { createTestApp, type TestApp } from "../support/test-app";

/** A well-formed fingerprint of no key this server has. */
const WRONG_KEY = `SHA256:${randomBytes(32).toString("base64").replace(/=+$/, "")}`;

describeRemote("SFTP", "SFTP host-key pinning", (server) => {
  let t: TestApp;
  let token: string;
  const folder = `host-key-${randomBytes(4).toString("hex")}`;

  beforeAll(async () => {
    t = await createTestApp();
    token = await t.adminToken();
  });
  afterAll(async () => {
    await t?.close();
  });

  async function createConfig(name: string, hostKey?: string) {
    const body = { ...remoteConfigBody(server, name, folder), ...(hostKey ? { host_key: hostKey } : {}) };
    const res = await t.request("POST", "/api/s3-configs", { token, body });
    expect(res.status, res.text).toBe(201);
    return res.body.data as { id: string; host_key: string | null; storage_type: string };
  }

  const runTest = async (id: string) => {
    const res = await t.request("POST", `/api/s3-configs/${id}/test`, { token });
    expect(res.status, res.text).toBe(200);
    return res.body.data;
  };

  it("the storage test reports the server's fingerprint; pinned, the same key passes", async () => {
    const open = await createConfig("SFTP unpinned");
    expect(open.host_key).toBeNull();
    const first = await runTest(open.id);
    expect(first.success, JSON.stringify(first)).toBe(true);
    const fingerprint = first.result.write.hostKey as string;
    expect(fingerprint).toMatch(/^SHA256:[A-Za-z0-9+/]{43}$/);
    // The same text OpenSSH shows for the server's key (scripts/test-services/rclone.sh).
    const keyFile = process.env.CLIPSHARE_TEST_SFTP_HOST_KEY_FILE;
    if (keyFile)
      expect(execFileSync("ssh-keygen", ["-lf", keyFile]).toString()).toContain(` ${fingerprint} `);

    const pinned = await createConfig("SFTP pinned", fingerprint);
    expect(pinned.host_key).toBe(fingerprint);
    const second = await runTest(pinned.id);
    expect(second.success, JSON.stringify(second)).toBe(true);
    expect(second.result.write.hostKey).toBe(fingerprint);
  });

  it("refuses another key with a clear error, in the test and on requests", async () => {
    const config = await createConfig("SFTP wrong key", WRONG_KEY);
    const tested = await runTest(config.id);
    expect(tested.success).toBe(false);
    expect(tested.result.write.success).toBe(false);
    expect(tested.result.write.error).toContain(`is not the pinned ${WRONG_KEY}`);
    // The key the server did show, so the admin can compare it with the real one.
    expect(tested.result.write.hostKey).toMatch(/^SHA256:/);
    expect(tested.result.write.hostKey).not.toBe(WRONG_KEY);

    await createMount(
      t,
      { configId: config.id, storageType: "SFTP", cleanup: async () => undefined },
      "/pinned",
    );
    const res = await list(t, "/pinned/", { token }, "&refresh=true");
    expect(res.status, res.text).toBe(502);
    expect(res.body).toMatchObject({
      success: false,
      error: "storage_error",
      message: "The SFTP server's host key is not the pinned one",
    });
  });

  it("takes only well-formed fingerprints, and only for SFTP", async () => {
    const malformed = await t.request("POST", "/api/s3-configs", {
      token,
      body: { ...remoteConfigBody(server, "SFTP bad pin", folder), host_key: "SHA256:short" },
    });
    expect(malformed.status, malformed.text).toBe(400);
    expect(malformed.body).toMatchObject({ success: false, error: "validation_failed" });

    const webdav = remoteTestServer("WEBDAV");
    if (!webdav) return;
    const other = await t.request("POST", "/api/s3-configs", {
      token,
      body: { ...remoteConfigBody(webdav, "WebDAV with pin", folder), host_key: WRONG_KEY },
    });
    expect(other.status, other.text).toBe(400);
    expect(other.text).toContain("host_key is only for SFTP storage");
  });

  it("an update clears the pin with an empty value", async () => {
    const config = await createConfig("SFTP unpin", WRONG_KEY);
    const res = await t.request("PUT", `/api/s3-configs/${config.id}`, { token, body: { host_key: "" } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.host_key).toBeNull();
    expect((await runTest(config.id)).success).toBe(true);
  });
});
