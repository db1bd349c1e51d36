import { mkdtempSync, readFileSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig, parseDuration } from "./config";

const tmp = () => mkdtempSync(path.join(os.tmpdir(), "clipshare-config-"));

describe("config", () => {
  it("applies the embedded defaults: port 8787, SQLite in DATA_DIR, 7-day tokens", () => {
    const dir = tmp();
    const config = loadConfig({ DATA_DIR: dir });
    expect(config.port).toBe(8787);
    expect(config.database).toEqual({ dialect: "sqlite", file: path.join(dir, "clipshare.db") });
    expect(config.adminTokenTtlSeconds).toBe(7 * 86400);
    expect(config.trustProxy).toBe(false);
    expect(config.corsOrigins).toEqual([]);
  });

  it("generates SECRET_KEY once into DATA_DIR with mode 0600 and reuses it", () => {
    const dir = tmp();
    const first = loadConfig({ DATA_DIR: dir });
    const file = path.join(dir, "secret.key");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(first.secretKeySource).toBe("file");
    const second = loadConfig({ DATA_DIR: dir });
    expect(second.secretKey.equals(first.secretKey)).toBe(true);
    expect(readFileSync(file, "utf8").trim().length).toBeGreaterThanOrEqual(32);
  });

  it("selects PostgreSQL from DATABASE_URL", () => {
    const config = loadConfig({ DATA_DIR: tmp(), DATABASE_URL: "postgres://u:p@localhost:5432/db" });
    expect(config.database).toEqual({ dialect: "postgres", url: "postgres://u:p@localhost:5432/db" });
  });

  it.each([
    [{ PORT: "abc" }, /PORT/],
    [{ PORT: "70000" }, /PORT/],
    [{ DATABASE_URL: "mysql://x" }, /DATABASE_URL/],
    [{ SECRET_KEY: "short" }, /SECRET_KEY/],
    [{ ADMIN_PASSWORD: "1234" }, /ADMIN_PASSWORD/],
    [{ ADMIN_USERNAME: "bad name" }, /ADMIN_USERNAME/],
    [{ ADMIN_TOKEN_TTL: "forever" }, /ADMIN_TOKEN_TTL/],
    [{ LOG_LEVEL: "loud" }, /LOG_LEVEL/],
    [{ CORS_ORIGINS: "not a url" }, /CORS_ORIGINS/],
    [{ TRUST_PROXY: "maybe" }, /TRUST_PROXY/],
    [{ URL_FETCH_ALLOW: "http://files.lan" }, /URL_FETCH_ALLOW/],
    [{ STORAGE_ENDPOINT_ALLOW: "minio.lan:99999" }, /STORAGE_ENDPOINT_ALLOW/],
    [{ S3_MULTIPART_COPY_ABOVE: "lots" }, /S3_MULTIPART_COPY_ABOVE/],
    [{ DOWNLOAD_OFFLOAD: "sendfile" }, /DOWNLOAD_OFFLOAD must be off, x-accel-redirect or x-sendfile/],
    [{ DOWNLOAD_OFFLOAD: "x-accel-redirect", DOWNLOAD_OFFLOAD_PREFIX: "files" }, /DOWNLOAD_OFFLOAD_PREFIX/],
  ])("fails fast on %j with a message naming the variable", (env, pattern) => {
    expect(() => loadConfig({ DATA_DIR: tmp(), ...env })).toThrow(ConfigError);
    expect(() => loadConfig({ DATA_DIR: tmp(), ...env })).toThrow(pattern);
  });

  it("parses durations with units", () => {
    expect(parseDuration("X", "3600")).toBe(3600);
    expect(parseDuration("X", "90m")).toBe(5400);
    expect(parseDuration("X", "12h")).toBe(43200);
    expect(parseDuration("X", "7d")).toBe(604800);
    expect(() => parseDuration("X", "5")).toThrow(/at least 60/);
  });

  it("reads CORS origins and TRUST_PROXY", () => {
    const config = loadConfig({
      DATA_DIR: tmp(),
      CORS_ORIGINS: "https://a.example, http://localhost:5173",
      TRUST_PROXY: "true",
    });
    expect(config.corsOrigins).toEqual(["https://a.example", "http://localhost:5173"]);
    expect(config.trustProxy).toBe(true);
  });
  it("FRAME_ANCESTORS: 'none' by default; keywords and origins accepted; anything else refused", () => {
    expect(loadConfig({ DATA_DIR: tmp() }).frameAncestors).toEqual(["'none'"]);
    expect(
      loadConfig({ DATA_DIR: tmp(), FRAME_ANCESTORS: "self https://intranet.example.com:8443 *.example.org" })
        .frameAncestors,
    ).toEqual(["'self'", "https://intranet.example.com:8443", "*.example.org"]);
    for (const bad of [
      "https://x.example; script-src *",
      "none self",
      "javascript:alert(1)",
      "'unsafe-inline'",
    ]) {
      expect(() => loadConfig({ DATA_DIR: tmp(), FRAME_ANCESTORS: bad }), bad).toThrow(/FRAME_ANCESTORS/);
    }
  });

  it("reads the fetch and storage allow-lists and the multipart copy limit", () => {
    const config = loadConfig({
      DATA_DIR: tmp(),
      URL_FETCH_ALLOW: "files.lan, 10.0.0.5:8080",
      STORAGE_ENDPOINT_ALLOW: "[::1]:9000",
      S3_MULTIPART_COPY_ABOVE: "64M",
    });
    expect(config.urlFetchAllow).toEqual([
      { host: "files.lan", port: null },
      { host: "10.0.0.5", port: 8080 },
    ]);
    expect(config.storageEndpointAllow).toEqual([{ host: "[::1]", port: 9000 }]);
    expect(config.s3MultipartCopyAbove).toBe(64 * 1024 * 1024);
    expect(loadConfig({ DATA_DIR: tmp() }).s3MultipartCopyAbove).toBe(5 * 1024 ** 3);
  });

  it("reads the instance name and the task takeover delay of a scaled-out deployment", () => {
    const plain = loadConfig({ DATA_DIR: tmp() });
    expect([plain.instanceName, plain.taskStaleSeconds]).toEqual([null, 60]);
    const named = loadConfig({ DATA_DIR: tmp(), INSTANCE_NAME: "web-2", TASK_STALE_AFTER: "90s" });
    expect([named.instanceName, named.taskStaleSeconds]).toEqual(["web-2", 90]);
    expect(() => loadConfig({ DATA_DIR: tmp(), INSTANCE_NAME: "two words" })).toThrow(/INSTANCE_NAME/);
    expect(() => loadConfig({ DATA_DIR: tmp(), TASK_STALE_AFTER: "1" })).toThrow(
      /TASK_STALE_AFTER must be at least 3 seconds/,
    );
  });

  it("reads the body idle timeout (120 s) and the per-address connection cap (256)", () => {
    const plain = loadConfig({ DATA_DIR: tmp() });
    expect([plain.bodyIdleTimeoutSeconds, plain.maxConnectionsPerIp]).toEqual([120, 256]);
    const set = loadConfig({ DATA_DIR: tmp(), BODY_IDLE_TIMEOUT: "5m", MAX_CONNECTIONS_PER_IP: "32" });
    expect([set.bodyIdleTimeoutSeconds, set.maxConnectionsPerIp]).toEqual([300, 32]);
    expect(() => loadConfig({ DATA_DIR: tmp(), BODY_IDLE_TIMEOUT: "soon" })).toThrow(/BODY_IDLE_TIMEOUT/);
    expect(() => loadConfig({ DATA_DIR: tmp(), MAX_CONNECTIONS_PER_IP: "0" })).toThrow(
      /MAX_CONNECTIONS_PER_IP must be a whole number of at least 1/,
    );
  });

  it("DOWNLOAD_OFFLOAD is off by default; on, it names the header, the data dir as root and the internal prefix", () => {
    const dataDir = tmp();
    expect(loadConfig({ DATA_DIR: dataDir }).downloadOffload).toBeNull();
    expect(loadConfig({ DATA_DIR: dataDir, DOWNLOAD_OFFLOAD: "X-Accel-Redirect" }).downloadOffload).toEqual({
      mode: "x-accel-redirect",
      root: dataDir,
      prefix: "/_clipshare_files/",
    });
    expect(
      loadConfig({ DATA_DIR: dataDir, DOWNLOAD_OFFLOAD: "x-sendfile", DOWNLOAD_OFFLOAD_ROOT: "/srv/files" })
        .downloadOffload,
    ).toMatchObject({ mode: "x-sendfile", root: "/srv/files" });
  });
});
