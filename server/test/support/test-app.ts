/**
 * Builds an isolated ClipShare for a test file: its own temp DATA_DIR and its own
 * database — SQLite by default, or a fresh PostgreSQL database when
 * CLIPSHARE_TEST_DB=postgres (server at CLIPSHARE_TEST_PG_URL). Requests go
 * through app.request(), the same code path as real HTTP minus the socket.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createPgDatabase } from "../../../scripts/test-services/pg-database.mjs";
import { type Config, loadConfig } from "../../src/config";
import { type AppContext, type ContextOptions, createContext } from "../../src/context";
import { createApp } from "../../src/http/app";
import { createLogger } from "../../src/logger";

export const ADMIN_USERNAME = "admin";
export const ADMIN_PASSWORD = "correct-horse-battery";

export const testDialect = (): "sqlite" | "postgres" =>
  process.env.CLIPSHARE_TEST_DB === "postgres" ? "postgres" : "sqlite";

export { createPgDatabase };

export interface TestResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  body?: unknown;
  rawBody?: RequestInit["body"];
  token?: string;
  apiKey?: string;
  headers?: Record<string, string>;
}

/** What HTTP-level helpers need: an in-process TestApp or a client of real servers (scale-out tests). */
export type ApiClient = Pick<TestApp, "request" | "adminToken">;

export interface TestApp {
  ctx: AppContext;
  config: Config;
  dataDir: string;
  app: ReturnType<typeof createApp>;
  request<T = any>(method: string, url: string, options?: RequestOptions): Promise<TestResponse<T>>;
  adminToken(): Promise<string>;
  createApiKey(permissions: number, extra?: Record<string, unknown>): Promise<{ id: string; key: string }>;
  /** A user made by the administrator, signed in: its id, name, password and session token. */
  createUser(options?: NewUser): Promise<TestUser>;
  close(): Promise<void>;
}

export interface NewUser {
  role?: "admin" | "user" | "guest";
  permissions?: number;
  base_path?: string;
  username?: string;
}

export interface TestUser {
  id: string;
  username: string;
  password: string;
  token: string;
  /** An API key of this user (made with their session, so it can hold no more than they may). */
  createApiKey(permissions: number, extra?: Record<string, unknown>): Promise<{ id: string; key: string }>;
}

/** `options.log`: the logger the app writes to (tests that read its lines); else one at LOG_LEVEL. */
export async function createTestApp(
  env: Record<string, string> = {},
  options: ContextOptions = {},
): Promise<TestApp> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "clipshare-test-"));
  const pgDb = testDialect() === "postgres" ? await createPgDatabase() : null;
  const config = loadConfig({
    DATA_DIR: dataDir,
    ADMIN_USERNAME,
    ADMIN_PASSWORD,
    LOG_LEVEL: "silent",
    WEB_DIST_DIR: path.join(dataDir, "no-web"),
    ...(pgDb ? { DATABASE_URL: pgDb.url } : {}),
    // The test S3 server (scripts/test-services) is on loopback; like a LAN deployment, it is allow-listed.
    ...(process.env.STORAGE_ENDPOINT_ALLOW
      ? { STORAGE_ENDPOINT_ALLOW: process.env.STORAGE_ENDPOINT_ALLOW }
      : {}),
    // The test FTPS server's certificate is self-signed; a deployment would trust its CA the same way.
    ...(process.env.CLIPSHARE_TEST_FTPS_CA ? { STORAGE_CA_FILE: process.env.CLIPSHARE_TEST_FTPS_CA } : {}),
    ...env,
  });
  const ctx = await createContext(config, { ...options, log: options.log ?? createLogger(config.logLevel) });
  const app = createApp(ctx);
  let cachedToken: string | null = null;

  const request = async <T = any>(
    method: string,
    url: string,
    options: RequestOptions = {},
  ): Promise<TestResponse<T>> => {
    const headers: Record<string, string> = { ...(options.headers ?? {}) };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (options.apiKey) headers.authorization = `ApiKey ${options.apiKey}`;
    let body: RequestInit["body"] | undefined = options.rawBody;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers["content-type"] ??= "application/json";
    }
    const res = await app.request(url, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // not JSON: leave as text
    }
    return { status: res.status, headers: res.headers, body: parsed as T, text };
  };

  const testApp: TestApp = {
    ctx,
    config,
    dataDir,
    app,
    request,
    async adminToken() {
      if (cachedToken) return cachedToken;
      const res = await request("POST", "/api/admin/login", {
        body: { username: ADMIN_USERNAME, password: ADMIN_PASSWORD },
      });
      if (res.status !== 200) throw new Error(`admin login failed: ${res.text}`);
      cachedToken = res.body.data.token as string;
      return cachedToken;
    },
    async createApiKey(permissions, extra = {}) {
      const res = await request("POST", "/api/admin/api-keys", {
        token: await testApp.adminToken(),
        body: { name: `key-${randomBytes(4).toString("hex")}`, permissions, expires_at: "never", ...extra },
      });
      if (res.status !== 201) throw new Error(`create key failed: ${res.text}`);
      return { id: res.body.data.id, key: res.body.data.key };
    },
    async createUser(options = {}) {
      const username = options.username ?? `user-${randomBytes(4).toString("hex")}`;
      const password = `pw-${randomBytes(8).toString("hex")}`;
      const made = await request("POST", "/api/admin/users", {
        token: await testApp.adminToken(),
        body: { username, password, ...options },
      });
      if (made.status !== 201) throw new Error(`create user failed: ${made.text}`);
      const login = await request("POST", "/api/admin/login", { body: { username, password } });
      if (login.status !== 200) throw new Error(`user login failed: ${login.text}`);
      const token = login.body.data.token as string;
      return {
        id: made.body.data.id as string,
        username,
        password,
        token,
        async createApiKey(permissions, extra = {}) {
          const res = await request("POST", "/api/admin/api-keys", {
            token,
            body: {
              name: `key-${randomBytes(4).toString("hex")}`,
              permissions,
              expires_at: "never",
              ...extra,
            },
          });
          if (res.status !== 201) throw new Error(`create key failed: ${res.text}`);
          return { id: res.body.data.id, key: res.body.data.key };
        },
      };
    },
    async close() {
      await ctx.close();
      await pgDb?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return testApp;
}
