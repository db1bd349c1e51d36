/**
 * No credential reaches the log. A full request cycle over a real socket with the log at
 * `debug` (every request's method, target and headers, every answer's headers): admin login,
 * a paste created with a password, the password verified, the raw paste read with the access
 * token and with the password in the query, an API key used, a signed upload URL used. Then
 * every line is searched for each secret value the cycle used or was given.
 */

import { Permission } from "@clipshare/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../../src/logger";
import { listenTestApp } from "../support/listen";
import { ADMIN_PASSWORD, ADMIN_USERNAME, createTestApp, type TestApp } from "../support/test-app";

const lines: string[] = [];
let t: TestApp;
let server: Awaited<ReturnType<typeof listenTestApp>>;

beforeAll(async () => {
  const log = createLogger("debug", { write: (line: string) => void lines.push(line) });
  t = await createTestApp({ LOG_LEVEL: "debug" }, { log });
  server = await listenTestApp(t);
});
afterAll(async () => {
  await server.close();
  await t.close();
});

async function call(
  method: string,
  path: string,
  init: { headers?: Record<string, string>; body?: unknown } = {},
) {
  const body =
    init.body === undefined || typeof init.body === "string" ? init.body : JSON.stringify(init.body);
  const headers = {
    ...(typeof init.body === "object" ? { "content-type": "application/json" } : {}),
    ...init.headers,
  };
  const res = await fetch(`${server.base}${path}`, { method, headers, body: body as string | undefined });
  const text = await res.text();
  let json = { data: {} as Record<string, string> };
  try {
    json = JSON.parse(text);
  } catch {}
  return { status: res.status, headers: res.headers, text, json };
}

/** The value part of each Set-Cookie line (`name=value; ...`). */
const cookieValues = (headers: Headers) => headers.getSetCookie().map((c) => c.split(";")[0]!.split("=")[1]!);

describe("a full request cycle at debug", () => {
  it("writes none of the secrets it used into any log line", async () => {
    const secrets = new Set<string>([ADMIN_PASSWORD]);

    const login = await call("POST", "/api/admin/login", {
      body: { username: ADMIN_USERNAME, password: ADMIN_PASSWORD },
    });
    expect(login.status).toBe(200);
    const token = login.json.data.token as string;
    secrets.add(token);
    for (const v of cookieValues(login.headers)) secrets.add(v);
    const bearer = { authorization: `Bearer ${token}` };

    const pastePassword = "paste-pass-77";
    secrets.add(pastePassword);
    const created = await call("POST", "/api/paste", {
      headers: bearer,
      body: { content: "the protected text", password: pastePassword },
    });
    expect(created.status, created.text).toBe(201);
    const slug = created.json.data.slug as string;

    const unlocked = await call("POST", `/api/paste/${slug}`, { body: { password: pastePassword } });
    expect(unlocked.status, unlocked.text).toBe(200);
    const accessToken = (unlocked.json.data.accessToken ?? unlocked.json.data.access_token) as string;
    expect(typeof accessToken).toBe("string");
    secrets.add(accessToken);
    for (const v of cookieValues(unlocked.headers)) secrets.add(v);

    expect((await call("GET", `/api/raw/${slug}?token=${encodeURIComponent(accessToken)}`)).status).toBe(200);
    expect((await call("GET", `/api/raw/${slug}?password=${pastePassword}`)).status).toBe(200);
    // A cookie sent back, as a browser does.
    const cookieHeader = login.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    if (cookieHeader) await call("GET", "/api/pastes", { headers: { cookie: cookieHeader } });

    const key = await t.createApiKey(Permission.TEXT | Permission.FILE_SHARE);
    secrets.add(key.key);
    expect(
      (await call("GET", "/api/pastes", { headers: { authorization: `ApiKey ${key.key}` } })).status,
    ).toBe(200);
    expect((await call("GET", "/api/pastes", { headers: { "x-custom-auth-key": key.key } })).status).toBe(
      200,
    );

    const presign = await call("POST", "/api/s3/presign", {
      headers: bearer,
      body: { filename: "signed.txt" },
    });
    expect(presign.status, presign.text).toBe(200);
    const uploadUrl = new URL(presign.json.data.upload_url as string);
    const signature = uploadUrl.searchParams.get("signature") ?? uploadUrl.searchParams.get("sig");
    expect(signature).toBeTruthy();
    secrets.add(signature as string);
    const put = await call("PUT", uploadUrl.pathname + uploadUrl.search, { body: "signed bytes" });
    expect(put.status, put.text).toBe(200);

    // The cycle was logged in detail: a debug line with the headers for every request.
    const parsed = lines.map((l) => JSON.parse(l));
    expect(parsed.filter((l) => l.msg === "request received").length).toBeGreaterThanOrEqual(9);
    expect(parsed.some((l) => l.req?.headers?.authorization === "[Redacted]")).toBe(true);
    const everything = lines.join("");
    for (const secret of secrets) {
      expect(secret.length).toBeGreaterThan(4);
      expect(everything.includes(secret), `a log line holds ${secret}`).toBe(false);
      expect(everything.includes(encodeURIComponent(secret)), `a log line holds ${secret}`).toBe(false);
    }
  });
});
