/**
 * The records browser tests start from, made through the HTTP API as a client
 * would, each failing the test when the server refuses. Named as the server
 * tests' helpers are (server/test/support: adminToken, createUser,
 * createApiKey, createLocalStorage, createS3Config, createMount, putFile).
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { APIRequestContext, APIResponse, Page } from "@playwright/test";
import { s3ConfigBody } from "../../../scripts/test-services/s3-config-body.mjs";
import { ADMIN_USERNAME, adminPassword, expect, unique } from "./fixtures";
import { s3Env } from "./s3-env";

export const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

/** The `data` of a response with the expected status (the body is the failure message otherwise). */
async function dataOf<T>(res: APIResponse, status = 201): Promise<T> {
  expect(res.status(), await res.text()).toBe(status);
  return ((await res.json()) as { data: T }).data;
}

// ---- sessions

/** A session token of a user signed in with name and password. */
export async function signInToken(request: APIRequestContext, username: string, password: string) {
  const data = await dataOf<{ token: string }>(
    await request.post("/api/admin/login", { data: { username, password } }),
    200,
  );
  return data.token;
}

/** A session of the administrator. */
export const adminToken = (request: APIRequestContext, password = adminPassword()) =>
  signInToken(request, ADMIN_USERNAME, password);

/** Start the page signed in as the administrator (token put where the app keeps it). */
export async function useAdminSession(page: Page, token: string, path = "/admin"): Promise<void> {
  await page.goto("/");
  await page.evaluate((t) => localStorage.setItem("admin_token", t), token);
  await page.goto(path);
}

/** Fills and sends the sign-in form; `origin` when the page must be opened elsewhere (passkeys). */
export async function signInViaForm(page: Page, username: string, password: string, origin = "") {
  await page.goto(`${origin}/admin`);
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

/** Fills and sends the sign-in form's API key tab. */
export async function signInWithKeyViaForm(page: Page, key: string) {
  await page.goto("/admin");
  await page.getByRole("tab", { name: "API key" }).click();
  await page.getByRole("textbox", { name: "API key" }).fill(key);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

export async function signInAsAdminViaForm(page: Page, password = adminPassword()): Promise<void> {
  await signInViaForm(page, ADMIN_USERNAME, password);
  await expect(page.getByRole("heading", { name: "Admin panel" })).toBeVisible();
}

// ---- accounts and keys

export interface NewUser {
  /** The name starts with this and gets a unique suffix. */
  prefix?: string;
  password?: string;
  role?: "admin" | "user" | "guest";
  permissions?: number;
  base_path?: string;
}

/** A user made by whoever `token` is (the administrator, usually); not signed in. */
export async function createUser(request: APIRequestContext, token: string, user: NewUser = {}) {
  const { prefix = "user", password = `${prefix}-password-1`, ...rest } = user;
  const username = unique(prefix).replace(/[^A-Za-z0-9_.@-]/g, "");
  const data = await dataOf<{ id: string }>(
    await request.post("/api/admin/users", { headers: bearer(token), data: { username, password, ...rest } }),
  );
  return { id: String(data.id), username, password };
}

/** An invitation link's path (/invite/…) for the role and permissions. */
export async function createInvitation(
  request: APIRequestContext,
  token: string,
  body: { role: "admin" | "user" | "guest"; permissions: number },
) {
  const data = await dataOf<{ path: string }>(
    await request.post("/api/admin/invitations", { headers: bearer(token), data: body }),
  );
  return data.path;
}

/** An API key with these permission bits (and base path); never expires unless told. */
export async function createApiKey(
  request: APIRequestContext,
  token: string,
  body: { name: string; permissions: number; basic_path?: string; expires_at?: string },
): Promise<{ id: string; key: string }> {
  const data = await dataOf<{ id: string; key: string }>(
    await request.post("/api/admin/api-keys", {
      headers: bearer(token),
      data: { expires_at: "never", ...body },
    }),
  );
  return { id: String(data.id), key: data.key };
}

// ---- shares

export interface CreatedShare {
  id: string;
  slug: string;
}

/** A paste; `auth` is the whole Authorization value (a session's or a key's). */
export async function createPaste(
  request: APIRequestContext,
  auth: string,
  body: Record<string, unknown>,
): Promise<CreatedShare> {
  const data = await dataOf<CreatedShare>(
    await request.post("/api/paste", { headers: { Authorization: auth }, data: body }),
  );
  return { id: data.id, slug: data.slug };
}

/** A file share uploaded in one request (PUT /api/upload-direct); `query` sets its options. */
export async function createFileShare(
  request: APIRequestContext,
  token: string,
  name: string,
  body: Buffer | string,
  query: Record<string, string | number> = {},
): Promise<CreatedShare> {
  const qs = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString();
  const res = await request.put(`/api/upload-direct/${encodeURIComponent(name)}${qs ? `?${qs}` : ""}`, {
    headers: bearer(token),
    data: typeof body === "string" ? Buffer.from(body) : body,
  });
  const data = await dataOf<CreatedShare>(res);
  return { id: data.id, slug: data.slug };
}

/** A file request; by default into a file share on the default storage. */
export async function createFileRequest(
  request: APIRequestContext,
  token: string,
  body: Record<string, unknown>,
) {
  return dataOf<{ id: string; slug: string }>(
    await request.post("/api/requests", {
      headers: bearer(token),
      data: { target: { kind: "share" }, ...body },
    }),
  );
}

// ---- storage and mounts

/** A LOCAL storage config over a fresh temporary folder. */
export async function createLocalStorage(request: APIRequestContext, token: string, name: string) {
  const root = mkdtempSync(join(tmpdir(), `clipshare-e2e-${name}-`));
  const data = await dataOf<{ id: string }>(
    await request.post("/api/s3-configs", {
      headers: bearer(token),
      data: { storage_type: "LOCAL", name, root_path: root },
    }),
  );
  return { id: data.id, root };
}

/**
 * A storage config on the test S3 server storing under `folder` (null when the
 * service is absent); `extra` adds or overrides fields (name, is_public, quota…).
 */
export async function createS3Config(
  request: APIRequestContext,
  token: string,
  folder: string,
  extra: Record<string, unknown> = {},
): Promise<{ id: string } | null> {
  const s3 = s3Env();
  if (!s3) return null;
  const data = await dataOf<{ id: string }>(
    await request.post("/api/s3-configs", {
      headers: bearer(token),
      data: s3ConfigBody(s3, `Swift ${folder}`, { default_folder: folder, ...extra }),
    }),
  );
  return { id: data.id };
}

export async function createMount(
  request: APIRequestContext,
  token: string,
  body: { name: string; mount_path: string; storage_type: "LOCAL" | "S3"; storage_config_id: string },
) {
  const data = await dataOf<{ id: string }>(
    await request.post("/api/admin/mounts", { headers: bearer(token), data: body }),
  );
  return data.id;
}

/** A LOCAL storage of its own (named `storageName`) mounted at `mountPath`, the mount named `name`. */
export async function createLocalMount(
  request: APIRequestContext,
  token: string,
  mountPath: string,
  { name = mountPath.slice(1), storageName = unique("disk") }: { name?: string; storageName?: string } = {},
) {
  const storage = await createLocalStorage(request, token, storageName);
  const id = await createMount(request, token, {
    name,
    mount_path: mountPath,
    storage_type: "LOCAL",
    storage_config_id: storage.id,
  });
  return { id, storage };
}

export async function putFile(
  request: APIRequestContext,
  token: string,
  path: string,
  body: Buffer | string,
) {
  const res = await request.put(`/api/fs/upload?path=${encodeURIComponent(path)}`, {
    headers: { ...bearer(token), "Content-Type": "application/octet-stream" },
    data: typeof body === "string" ? Buffer.from(body) : body,
  });
  expect(res.status(), await res.text()).toBe(201);
}
