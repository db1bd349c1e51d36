/**
 * A server that keeps files on its own disk and data in SQLite never loads the
 * AWS SDK or the PostgreSQL client: they are loaded on first use, so such a
 * server starts faster and stays smaller. WebDAV and the OpenAPI document are
 * loaded with their first request. A real process is started with a preload that
 * records every module it loads, serves a health check and a LOCAL upload and
 * download (the record is read here), then a first WebDAV and OpenAPI request,
 * and is stopped; then the record is read again. A restart on the same data directory
 * (a schema already in place) must not load ICU's locale data just to start.
 * (@hono/node-server reads Node's Fetch classes when it is loaded; what that
 * costs at rest is the idle RSS budget of `npm run bench -- start`.)
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import SqliteDatabase from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ServerProcess, startServer } from "../support/server-process";

const ADMIN = { username: "admin", password: "lean-start-password-1" };
const PRELOAD = path.resolve(import.meta.dirname, "../support/record-loads.mjs");
const LOCALE_PRELOAD = path.resolve(import.meta.dirname, "../support/record-locale-data.mjs");

let dir: string;
let server: ServerProcess;
let loaded: string[];
/** Modules loaded before the first WebDAV and OpenAPI requests. */
let loadedIdle: string[];
let davStatus: number;
let davBody: string;
let openApi: { openapi?: string; paths?: Record<string, unknown> };

const readLoads = (file: string) => readFileSync(file, "utf8").split("\n").filter(Boolean);
const isWebdavModule = (m: string) => m.includes("/server/src/webdav/");
const isOpenApiDocument = (m: string) => m.includes("/server/src/http/openapi/");

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), "clipshare-lean-"));
  const loadsFile = path.join(dir, "loads.txt");
  server = await startServer(
    {
      DATA_DIR: path.join(dir, "data"),
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
      WEB_DIST_DIR: path.join(dir, "no-web"),
      RECORD_LOADS_FILE: loadsFile,
    },
    ["--import", PRELOAD],
  );
  try {
    const login = await fetch(`${server.url}/api/admin/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(ADMIN),
    });
    const token = ((await login.json()) as { data: { token: string } }).data.token;
    const upload = await fetch(`${server.url}/api/upload-direct/hello.txt?slug=lean-start`, {
      method: "PUT",
      headers: { authorization: `Bearer ${token}`, "content-type": "text/plain" },
      body: "hello from a lean server",
    });
    expect(upload.status).toBe(201);
    const { downloadUrl } = ((await upload.json()) as { data: { downloadUrl: string } }).data;
    const download = await fetch(`${server.url}${downloadUrl}`);
    expect(await download.text()).toBe("hello from a lean server");
    loadedIdle = readLoads(loadsFile);
    const basic = Buffer.from(`${ADMIN.username}:${ADMIN.password}`).toString("base64");
    const dav = await fetch(`${server.url}/dav/`, {
      method: "PROPFIND",
      headers: { authorization: `Basic ${basic}`, depth: "1" },
    });
    davStatus = dav.status;
    davBody = await dav.text();
    openApi = (await (await fetch(`${server.url}/api/openapi.json`)).json()) as typeof openApi;
  } finally {
    await server.stop();
  }
  loaded = readLoads(loadsFile);
}, 60_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("a SQLite + LOCAL server", () => {
  it("records the modules it loads (both ES modules and CommonJS)", () => {
    expect(loaded.some((m) => m.includes("/node_modules/kysely/"))).toBe(true);
    expect(loaded.some((m) => m.includes("/node_modules/better-sqlite3/"))).toBe(true);
  });

  it("never loads the AWS SDK", () => {
    expect(loaded.filter((m) => m.includes("/node_modules/@aws-sdk/"))).toEqual([]);
    expect(loaded.filter((m) => m.includes("/node_modules/@smithy/"))).toEqual([]);
  });

  it("never loads the PostgreSQL client", () => {
    expect(loaded.filter((m) => /\/node_modules\/pg[^/]*\//.test(m))).toEqual([]);
  });

  it("does not load the image library until a thumbnail is asked for", () => {
    expect(loaded.filter((m) => /\/node_modules\/(sharp|@img)\//.test(m))).toEqual([]);
  });

  it("does not load WebDAV or the OpenAPI document until they are asked for", () => {
    expect(loadedIdle.some((m) => m.includes("/server/src/http/app.ts"))).toBe(true);
    expect(loadedIdle.filter(isWebdavModule)).toEqual([]);
    expect(loadedIdle.filter(isOpenApiDocument)).toEqual([]);
  });

  it("answers the first WebDAV and OpenAPI requests once their code has loaded", () => {
    expect(loaded.some(isWebdavModule)).toBe(true);
    expect(davStatus).toBe(207);
    expect(davBody).toContain("<D:href>/dav/</D:href>");
    expect(loaded.some(isOpenApiDocument)).toBe(true);
    expect(openApi.openapi).toMatch(/^3\.1/);
    expect(Object.keys(openApi.paths ?? {})).toContain("/api/pastes");
  });
});

describe("a restart of a SQLite + LOCAL server", () => {
  let localeCalls: string[];
  let healthy: boolean;
  let headStatus: number;
  let notFound: { status: number; error?: string };

  beforeAll(async () => {
    const localeFile = path.join(dir, "locale.txt");
    writeFileSync(localeFile, "");
    // A fast first start applies its migrations within one millisecond, and the migrator orders
    // migrations with equal timestamps by name: leave the schema as such a start does.
    const db = new SqliteDatabase(path.join(dir, "data", "clipshare.db"));
    db.exec("update kysely_migration set timestamp = (select min(timestamp) from kysely_migration)");
    db.close();
    const restarted = await startServer(
      {
        DATA_DIR: path.join(dir, "data"),
        WEB_DIST_DIR: path.join(dir, "no-web"),
        RECORD_LOCALE_FILE: localeFile,
      },
      ["--import", LOCALE_PRELOAD],
    );
    try {
      healthy = true;
      for (let i = 0; i < 3; i++) healthy &&= (await fetch(`${restarted.url}/api/health`)).ok;
      headStatus = (await fetch(`${restarted.url}/api/health`, { method: "HEAD" })).status;
      const missing = await fetch(`${restarted.url}/api/no-such-route`);
      notFound = { status: missing.status, ...((await missing.json()) as { error?: string }) };
    } finally {
      await restarted.stop();
    }
    localeCalls = readLoads(localeFile);
  }, 60_000);

  it("starts and answers a health check without locale-aware collation or formatting", () => {
    expect(healthy).toBe(true);
    expect(localeCalls).toEqual([]);
  });

  it("answers health checks, HEAD and a 404", () => {
    expect(healthy).toBe(true);
    expect(headStatus).toBe(200);
    expect(notFound.status).toBe(404);
    expect(notFound.error).toBe("not_found");
  });
});
