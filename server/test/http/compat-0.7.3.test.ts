/**
 * The 0.7.3 wire contract, one test per point: each sends exactly what a
 * 0.7.3 client sends and checks the fields that client reads. Deliberate
 * differences are listed in docs/architecture.md ("Compatibility with 0.7.3
 * clients").
 */
import { createHash, randomBytes } from "node:crypto";
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { Permission } from "@clipshare/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cookieFor } from "../support/cookies";
import {
  createLocalStorage,
  createMount,
  createS3Storage,
  readBytes,
  type StorageUnderTest,
} from "../support/fs-helpers";
import { describeS3 } from "../support/s3-env";
import { createTestApp, type TestApp } from "../support/test-app";

let t: TestApp;
let token: string;
let disk: StorageUnderTest;

beforeAll(async () => {
  t = await createTestApp({ TRUST_PROXY: "true" });
  token = await t.adminToken();
  disk = await createLocalStorage(t, "compat-disk");
});
afterAll(async () => t.close());

let ipSeq = 1;
const freshIp = () => ({ "x-forwarded-for": `10.73.${Math.floor(ipSeq / 250)}.${ipSeq++ % 250}` });

async function createPaste(body: Record<string, unknown>) {
  const res = await t.request("POST", "/api/paste", { token, body });
  expect(res.status, res.text).toBe(201);
  return res.body.data.slug as string;
}

async function uploadFile(filename: string, content: string | Buffer, query = "") {
  const res = await t.request("PUT", `/api/upload-direct/${encodeURIComponent(filename)}?${query}`, {
    token,
    rawBody: typeof content === "string" ? content : new Uint8Array(content),
    headers: { "content-type": "application/octet-stream" },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.data as { id: string; slug: string };
}

const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");
/** Form uploads spooled to disk and not yet removed (a finished upload leaves none). */
const spooled = () => {
  const dir = path.join(t.dataDir, "tmp", "uploads");
  return existsSync(dir) ? readdirSync(dir) : [];
};

/** The 0.7.3 explorer's form: file first, then path and use_multipart. */
function explorerForm(bytes: Buffer, name: string, dir: string, useMultipart: "true" | "false") {
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(bytes)]), name);
  form.append("path", dir);
  form.append("use_multipart", useMultipart);
  return form;
}

const post = (url: string, form: FormData, auth = `Bearer ${token}`) =>
  t.app.request(url, { method: "POST", headers: { authorization: auth }, body: form });

describe("pastes: the visitor routes answer with the paste at the top level too", () => {
  it("GET /api/paste/:slug: content, remark, expiry and view counts where 0.7.3 pages read them", async () => {
    const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
    const slug = await createPaste({ content: "hello 0.7.3", remark: "note", expiresAt, maxViews: 5 });
    const res = await t.request("GET", `/api/paste/${slug}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      code: 200,
      success: true,
      slug,
      content: "hello 0.7.3",
      remark: "note",
      expiresAt,
      expires_at: expiresAt,
      maxViews: 5,
      views: 1,
      hasPassword: false,
      isLastView: false,
    });
    expect(res.body.data).toMatchObject({ content: "hello 0.7.3", views: 1 });
  });

  it("GET /api/paste/:slug of a protected paste: requiresPassword at the top level, no content", async () => {
    const slug = await createPaste({ content: "secret text", password: "open-sesame" });
    const res = await t.request("GET", `/api/paste/${slug}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ requiresPassword: true, hasPassword: true });
    expect(res.body.content).toBeUndefined();
    expect(res.body.plain_password).toBeUndefined();
  });

  it("POST /api/paste/:slug {password}: content and plain_password (what the visitor sent), nowhere else", async () => {
    const slug = await createPaste({ content: "unlocked text", password: "open-sesame", maxViews: 2 });
    const res = await t.request("POST", `/api/paste/${slug}`, {
      body: { password: "open-sesame" },
      headers: freshIp(),
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      content: "unlocked text",
      hasPassword: true,
      plain_password: "open-sesame",
      views: 1,
      maxViews: 2,
    });
    // The page's raw link is built from it.
    const raw = await t.app.request(`/api/raw/${slug}?password=${res.body.plain_password}`, {
      headers: freshIp(),
    });
    expect(await raw.text()).toBe("unlocked text");
    // Only this answer carries it: never GET, the owner's paste or the lists.
    const answers = [
      await t.request("GET", `/api/paste/${slug}`, { token }),
      await t.request("GET", `/api/pastes/${slug}`, { token }),
      await t.request("GET", "/api/pastes", { token }),
    ];
    for (const res of answers) {
      expect(res.status).toBe(200);
      expect(res.text).not.toContain("plain_password");
      expect(res.text).not.toContain("open-sesame");
    }
  });
});

describe("API keys", () => {
  it("the default create form (custom_key null or empty) creates a key with a generated value", async () => {
    for (const customKey of [null, ""]) {
      const res = await t.request("POST", "/api/admin/api-keys", {
        token,
        body: {
          name: `default-form-${customKey === null ? "null" : "empty"}`,
          expires_at: new Date(Date.now() + 86_400_000).toISOString(),
          permissions: Permission.TEXT | Permission.FILE_SHARE,
          role: "GENERAL",
          custom_key: customKey,
          basic_path: "/",
          is_guest: false,
        },
      });
      expect(res.status, res.text).toBe(201);
      expect(res.body.code).toBe(201);
      expect(res.body.data.key).toMatch(/^[A-Za-z0-9]{8,}$/);
    }
  });
});

describe("storage configs and mounts", () => {
  it('provider_type "Other" is accepted and answered as sent, so the edit form matches', async () => {
    const create = await t.request("POST", "/api/s3-configs", {
      token,
      body: {
        name: "Other provider",
        provider_type: "Other",
        endpoint_url: "https://s3.example.com",
        bucket_name: "bucket",
        region: "",
        access_key_id: "AKIAEXAMPLE",
        secret_access_key: "secret-example",
        path_style: true,
        default_folder: "",
        is_public: false,
      },
    });
    expect(create.status, create.text).toBe(201);
    expect(create.body.data.provider_type).toBe("Other");
    const id = create.body.data.id;
    expect((await t.request("GET", `/api/s3-configs/${id}`, { token })).body.data.provider_type).toBe(
      "Other",
    );
    const edit = await t.request("PUT", `/api/s3-configs/${id}`, {
      token,
      body: { name: "Other provider 2", provider_type: "Other" },
    });
    expect(edit.status, edit.text).toBe(200);
    expect(edit.body.data).toMatchObject({ name: "Other provider 2", provider_type: "Other" });
  });

  it("empty number fields of the storage form (capacity, URL lifetime) mean the defaults", async () => {
    const res = await t.request("POST", "/api/s3-configs", {
      token,
      body: {
        name: "Empty numbers",
        provider_type: "Cloudflare R2",
        endpoint_url: "https://account.r2.example.com",
        bucket_name: "bucket",
        access_key_id: "AKIAEXAMPLE",
        secret_access_key: "secret-example",
        total_storage_bytes: "",
        signature_expires_in: "",
      },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.data).toMatchObject({ total_storage_bytes: null, signature_expires_in: 3600 });
    const edit = await t.request("PUT", `/api/s3-configs/${res.body.data.id}`, {
      token,
      body: { total_storage_bytes: "", signature_expires_in: "" },
    });
    expect(edit.status, edit.text).toBe(200);
  });

  it('a mount on a LOCAL config created with storage_type "S3" takes the config\'s type and works', async () => {
    const res = await t.request("POST", "/api/admin/mounts", {
      token,
      body: {
        name: "Old client mount",
        storage_type: "S3",
        storage_config_id: disk.configId,
        mount_path: "/compat-local",
        remark: "",
        is_active: true,
        sort_order: 0,
        cache_ttl: 300,
        web_proxy: false,
        webdav_policy: "302_redirect",
        enable_sign: false,
        sign_expires: null,
      },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.data.storage_type).toBe("LOCAL");
    const edit = await t.request("PUT", `/api/admin/mounts/${res.body.data.id}`, {
      token,
      body: { storage_type: "S3", remark: "edited" },
    });
    expect(edit.status, edit.text).toBe(200);
    expect(edit.body.data.storage_type).toBe("LOCAL");
    const list = await t.request("GET", "/api/fs/list?path=/compat-local", { token });
    expect(list.status, list.text).toBe(200);
  });

  it("the storage test reports the browser upload check as frontendSim", async () => {
    const res = await t.request("POST", `/api/s3-configs/${disk.configId}/test`, {
      token,
      headers: { origin: "http://client.example" },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.success).toBe(true);
    expect(res.body.data.result.frontendSim).toMatchObject({ success: true });
    expect(res.body.data.result.read.success).toBe(true);
    expect(res.body.data.result.cors.success).toBe(true);
  });

  it("a LOCAL config answers with its provider, directory and disk capacity, not nulls", async () => {
    const one = await t.request("GET", `/api/s3-configs/${disk.configId}`, { token });
    expect(one.status, one.text).toBe(200);
    // 0.7.3 shows "<name> (<provider_type>)" and "<used> / <total_storage_bytes>".
    expect(one.body.data.provider_type).toBe("Local");
    expect(one.body.data.endpoint_url).toBe(path.join(t.dataDir, "compat-disk"));
    expect(one.body.data.total_storage_bytes).toBeGreaterThan(0);
    const list = await t.request("GET", "/api/s3-configs", { token });
    const listed = list.body.data.find((c: { id: string }) => c.id === disk.configId);
    expect(listed).toMatchObject({ provider_type: "Local", endpoint_url: one.body.data.endpoint_url });
    expect(listed.total_storage_bytes).toBe(one.body.data.total_storage_bytes);
  });

  it("a quota set on a LOCAL config is answered instead of the disk's capacity", async () => {
    const own = await createLocalStorage(t, "compat-quota");
    const set = await t.request("PUT", `/api/s3-configs/${own.configId}`, {
      token,
      body: { total_storage_bytes: 1234567 },
    });
    expect(set.status, set.text).toBe(200);
    expect(set.body.data.total_storage_bytes).toBe(1234567);
  });

  it("the storage test answers connectionInfo where 0.7.3's details window reads it", async () => {
    const res = await t.request("POST", `/api/s3-configs/${disk.configId}/test`, { token });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.result.connectionInfo).toEqual({
      bucket: null,
      endpoint: path.join(t.dataDir, "compat-disk"),
      region: null,
      pathStyle: false,
      provider: "Local",
      defaultFolder: "",
      customHost: null,
      signatureExpiresIn: 3600,
    });
  });

  it("the storage test's read block lists the first objects by key, size and time", async () => {
    const own = await createLocalStorage(t, "compat-read");
    await createMount(t, own, "/compat-read-block");
    const put = await t.request("PUT", "/api/fs/upload?path=/compat-read-block/listed.txt", {
      token,
      rawBody: "12345",
    });
    expect(put.status, put.text).toBeLessThan(300);
    const res = await t.request("POST", `/api/s3-configs/${own.configId}/test`, { token });
    const read = res.body.data.result.read;
    expect(read).toMatchObject({ success: true, error: null, prefix: "" });
    expect(read.objectCount).toBeGreaterThanOrEqual(1);
    const listed = read.firstObjects.find((o: { key: string }) => o.key === "listed.txt");
    expect(listed).toMatchObject({ key: "listed.txt", size: 5 });
    expect(Date.parse(listed.lastModified)).toBeGreaterThan(0);
  });

  it("fs/search says how many mounts it searched", async () => {
    await createMount(t, disk, "/compat-search");
    const put = await t.request("PUT", "/api/fs/upload?path=/compat-search/needle-file.txt", {
      token,
      rawBody: "x",
    });
    expect(put.status, put.text).toBeLessThan(300);
    const res = await t.request("GET", "/api/fs/search?q=needle&scope=global&limit=50&offset=0", { token });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.results.map((r: { name: string }) => r.name)).toContain("needle-file.txt");
    expect(typeof res.body.data.mountsSearched).toBe("number");
    expect(res.body.data.mountsSearched).toBeGreaterThanOrEqual(1);
    const one = await t.request("GET", "/api/fs/search?q=needle&scope=directory&path=/compat-search", {
      token,
    });
    expect(one.body.data.mountsSearched).toBe(1);
  });
});

describe("file shares", () => {
  it("GET /api/files/:id has absolute proxy URLs without password or token, and the config name", async () => {
    const file = await uploadFile("direct-link.txt", "direct link body", "password=pw-123456");
    const res = await t.request("GET", `/api/files/${file.id}`, { token });
    expect(res.status).toBe(200);
    const { urls, storage_config_name } = res.body.data;
    expect(urls.proxyPreviewUrl).toBe(`http://localhost/api/file-view/${file.slug}`);
    expect(urls.proxyDownloadUrl).toBe(`http://localhost/api/file-download/${file.slug}`);
    expect(storage_config_name).toBe("Local storage");
    // The client appends ?password= to the direct link.
    const dl = await t.app.request(`${urls.proxyDownloadUrl}?password=pw-123456`, { headers: freshIp() });
    expect(dl.status).toBe(200);
    expect(await dl.text()).toBe("direct link body");
  });

  it("public/files and verify hand out absolute URLs on the API origin (forwarded host behind a proxy)", async () => {
    const open = await uploadFile("public.txt", "public body");
    const proxied = { "x-forwarded-proto": "https", "x-forwarded-host": "files.example.org" };
    const pub = await t.request("GET", `/api/public/files/${open.slug}`, { headers: proxied });
    expect(pub.body.data.previewUrl).toMatch(
      new RegExp(`^https://files\\.example\\.org/api/file-view/${open.slug}\\?`),
    );
    expect(pub.body.data.downloadUrl).toMatch(/^https:\/\/files\.example\.org\/api\/file-download\//);
    const local = await t.request("GET", `/api/public/files/${open.slug}`);
    expect(local.body.data.previewUrl).toMatch(/^http:\/\/localhost\/api\/file-view\//);
    const dl = await t.app.request(local.body.data.downloadUrl);
    expect(await dl.text()).toBe("public body");

    const locked = await uploadFile("locked.txt", "locked body", "password=pw-123456");
    const verify = await t.request("POST", `/api/public/files/${locked.slug}/verify`, {
      body: { password: "pw-123456" },
      headers: { ...freshIp(), ...proxied },
    });
    expect(verify.status).toBe(200);
    expect(verify.body.data.previewUrl).toMatch(/^https:\/\/files\.example\.org\/api\/file-view\//);
  });

  it("office-preview: a top-level url holding the file's own URL, beside the viewer links in data", async () => {
    const docx = await uploadFile("report.docx", "PK fake docx body");
    const res = await t.request("GET", `/api/office-preview/${docx.slug}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ filename: "report.docx", is_temporary: true });
    expect(res.body.url).toMatch(new RegExp(`^http://localhost/api/file-view/${docx.slug}\\?token=`));
    const direct = await t.app.request(res.body.url);
    expect(await direct.text()).toBe("PK fake docx body");
    expect(res.body.data.url).toMatch(/^https:\/\/view\.officeapps\.live\.com\/op\/view\.aspx\?src=/);
    expect(decodeURIComponent(res.body.data.google)).toContain(res.body.url);
  });

  it("the file page's preview and office buttons rebuild URLs without the token: the page's view carries them", async () => {
    const slug = (await uploadFile("slides.pptx", "pptx body", "max_views=1&password=pw-123456")).slug;
    const verify = await t.app.request(`/api/public/files/${slug}/verify`, {
      method: "POST",
      body: JSON.stringify({ password: "pw-123456" }),
      headers: { "content-type": "application/json", ...freshIp() },
    });
    expect(verify.status).toBe(200);
    // What the browser keeps from that answer and sends back to the API's content paths.
    const preview = await t.app.request(`/api/file-view/${slug}?password=pw-123456`, {
      headers: { cookie: cookieFor(verify, `/api/file-view/${slug}`), ...freshIp() },
    });
    expect(preview.status).toBe(200);
    expect(await preview.text()).toBe("pptx body");
    const office = await t.app.request(`/api/office-preview/${slug}?password=pw-123456`, {
      headers: { cookie: cookieFor(verify, `/api/office-preview/${slug}`), ...freshIp() },
    });
    expect(office.status).toBe(200);
    expect(((await office.json()) as { url: string }).url).toMatch(/^http:\/\/localhost\/api\/file-view\//);
    const row = await t.ctx.db
      .selectFrom("files")
      .select("views")
      .where("slug", "=", slug)
      .executeTakeFirst();
    expect(Number(row!.views)).toBe(1);
  });

  it("a wrong password on file-view/file-download is 403 (0.7.3), on verify 401", async () => {
    const locked = await uploadFile("pw.txt", "pw body", "password=pw-123456");
    for (const route of ["file-view", "file-download"]) {
      const res = await t.app.request(`/api/${route}/${locked.slug}?password=wrong-one`, {
        headers: freshIp(),
      });
      expect(res.status, route).toBe(403);
    }
    const missing = await t.app.request(`/api/file-view/${locked.slug}`, { headers: freshIp() });
    expect(missing.status).toBe(401);
    const verify = await t.request("POST", `/api/public/files/${locked.slug}/verify`, {
      body: { password: "wrong-one" },
      headers: freshIp(),
    });
    expect(verify.status).toBe(401);
  });
});

// The 0.7.3 explorer's "direct" upload is a multipart form in the order
// `file`, `path`, `use_multipart`: the file part comes before the fields that
// say where it goes.
describe("0.7.3 explorer upload (POST /api/fs/upload)", () => {
  beforeAll(async () => {
    await createMount(t, await createLocalStorage(t, "compat-upload-disk"), "/m");
  });

  it("file, path, use_multipart=false: stores the file where path says", async () => {
    const bytes = randomBytes(200_000);
    const res = await post("/api/fs/upload", explorerForm(bytes, "photo.jpg", "/m/album", "false"));
    const body = (await res.json()) as { data: Record<string, unknown> };
    expect(res.status, JSON.stringify(body)).toBe(201);
    expect(body.data).toMatchObject({ success: true, fileName: "photo.jpg", size: bytes.length });
    expect(sha(await readBytes(t, "/m/album/photo.jpg", { token }))).toBe(sha(bytes));
    expect(spooled()).toEqual([]);
  });

  it("with an API key holding MOUNT_UPLOAD, and a full file path as path", async () => {
    const key = await t.createApiKey(Permission.MOUNT_VIEW | Permission.MOUNT_UPLOAD);
    const bytes = Buffer.from("notes by key");
    const res = await post(
      "/api/fs/upload",
      explorerForm(bytes, "k.txt", "/m/keys/k.txt", "false"),
      `ApiKey ${key.key}`,
    );
    expect(res.status).toBe(201);
    expect((await readBytes(t, "/m/keys/k.txt", { token })).toString()).toBe("notes by key");
  });

  it("use_multipart=true answers the multipart upload to send the parts to, and storing nothing yet", async () => {
    const bytes = randomBytes(6 * 1024 * 1024);
    const res = await post("/api/fs/upload", explorerForm(bytes, "big.bin", "/m/mp", "true"));
    const body = (await res.json()) as {
      data: {
        uploadId: string;
        key: string;
        partSize: number;
        partCount: number;
        presignedUrls: Array<{ partNumber: number; url: string }>;
        path: string;
      };
    };
    expect(res.status, JSON.stringify(body)).toBe(200);
    const d = body.data;
    expect(d).toMatchObject({ partSize: 5 * 1024 * 1024, partCount: 2, path: "/m/mp/big.bin" });
    expect(d.presignedUrls.map((p) => p.partNumber)).toEqual([1, 2]);
    const listing = await t.request("GET", "/api/fs/list?path=/m/mp", { token });
    expect((listing.body.data?.items ?? []).map((i: { name: string }) => i.name)).not.toContain("big.bin");
    const parts = [];
    for (const { partNumber, url } of d.presignedUrls) {
      const u = new URL(url);
      const chunk = bytes.subarray((partNumber - 1) * d.partSize, partNumber * d.partSize);
      const put = await t.app.request(`${u.pathname}${u.search}`, {
        method: "PUT",
        body: new Uint8Array(chunk),
      });
      expect(put.status).toBe(200);
      parts.push({ partNumber, etag: put.headers.get("etag")!.replace(/"/g, "") });
    }
    const done = await t.request("POST", "/api/fs/multipart/complete", {
      token,
      body: { path: "/m/mp", uploadId: d.uploadId, fileName: "big.bin", parts },
    });
    expect(done.status, done.text).toBe(200);
    expect(sha(await readBytes(t, "/m/mp/big.bin", { token }))).toBe(sha(bytes));
  });

  it("path first and use_multipart after the file part: still a multipart start, nothing stored", async () => {
    const form = new FormData();
    form.append("path", "/m/late");
    form.append("file", new Blob([new Uint8Array(randomBytes(1000))]), "late.bin");
    form.append("use_multipart", "true");
    const res = await post("/api/fs/upload", form);
    const body = (await res.json()) as { data: { uploadId: string; path: string } };
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body.data).toMatchObject({ path: "/m/late/late.bin" });
    expect(body.data.uploadId).toBeTruthy();
    expect((await t.request("GET", "/api/fs/get?path=/m/late/late.bin", { token })).status).toBe(404);
    expect(spooled()).toEqual([]);
  });

  it("a full file path that does not exist yet is written as that file, not a folder of that name", async () => {
    const form = new FormData();
    form.append("path", "/m/fresh/renamed.txt");
    form.append("use_multipart", "false");
    form.append("file", new Blob(["renamed on upload"]), "original.txt");
    const res = await post("/api/fs/upload", form);
    expect(res.status, await res.clone().text()).toBe(201);
    const entry = await t.request("GET", "/api/fs/get?path=/m/fresh/renamed.txt", { token });
    expect(entry.body.data).toMatchObject({ isDirectory: false, name: "renamed.txt" });
    expect((await readBytes(t, "/m/fresh/renamed.txt", { token })).toString()).toBe("renamed on upload");
  });

  it("a file over the max upload size is 413 whatever the order, and leaves nothing behind", async () => {
    await t.request("PUT", "/api/admin/system-settings", {
      token,
      body: { max_upload_size: 64, max_upload_size_unit: "KB" },
    });
    try {
      const res = await post(
        "/api/fs/upload",
        explorerForm(randomBytes(100_000), "huge.bin", "/m/limit", "false"),
      );
      expect(res.status).toBe(413);
      expect(await res.json()).toMatchObject({ success: false, error: "content_too_large" });
      const listing = await t.request("GET", "/api/fs/list?path=/m", { token });
      expect(listing.body.data.items.map((i: { name: string }) => i.name)).not.toContain("limit");
      expect(spooled()).toEqual([]);
    } finally {
      await t.request("PUT", "/api/admin/system-settings", {
        token,
        body: { max_upload_size: 100, max_upload_size_unit: "MB" },
      });
    }
  });

  it("a form without path is still 400 'Please provide file and path'", async () => {
    const form = new FormData();
    form.append("file", new Blob(["x"]), "x.txt");
    const res = await post("/api/fs/upload", form);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ message: "Please provide file and path", success: false });
    expect(spooled()).toEqual([]);
  });
});

describe("share upload form (POST /api/upload) with the file first", () => {
  it("applies the share fields that follow the file, including a password", async () => {
    const form = new FormData();
    form.append("file", new Blob(["secret report"]), "report.txt");
    form.append("password", "typed-after");
    form.append("max_views", "2");
    const res = await post("/api/upload", form);
    const body = (await res.json()) as { data: Record<string, unknown> };
    expect(res.status, JSON.stringify(body)).toBe(201);
    expect(body.data).toMatchObject({ filename: "report.txt", has_password: true, max_views: 2, size: 13 });
    const pub = await t.request("GET", `/api/public/files/${body.data.slug}`);
    expect(pub.body.data.requires_password).toBe(true);
    expect(spooled()).toEqual([]);
  });
});

describe("system", () => {
  it("GET /api/health answers status and timestamp at the top level", async () => {
    const res = await t.request("GET", "/api/health");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: "ok", success: true });
    expect(Date.parse(res.body.timestamp)).not.toBeNaN();
  });
});

describeS3("storage test on S3", (s3) => {
  it("frontendSim reports the presigned upload and CORS steps a browser takes", async () => {
    const swift = await createS3Storage(t, s3, "compat");
    try {
      const res = await t.request("POST", `/api/s3-configs/${swift.configId}/test`, {
        token,
        headers: { origin: "http://client.example" },
      });
      expect(res.status, res.text).toBe(200);
      const sim = res.body.data.result.frontendSim;
      expect(sim).toMatchObject({
        success: true,
        steps: { step1: { success: true }, step2: { success: true } },
      });
      expect(typeof sim.steps.step1.name).toBe("string");
    } finally {
      await swift.cleanup();
    }
  });

  it("connectionInfo and the read block name the bucket, endpoint and default folder", async () => {
    const swift = await createS3Storage(t, s3, "compat-info");
    try {
      const config = (await t.request("GET", `/api/s3-configs/${swift.configId}`, { token })).body.data;
      const res = await t.request("POST", `/api/s3-configs/${swift.configId}/test`, { token });
      expect(res.status, res.text).toBe(200);
      expect(res.body.data.result.connectionInfo).toEqual({
        bucket: s3.bucket,
        endpoint: s3.endpoint,
        region: s3.region,
        pathStyle: true,
        provider: "Other S3 Compatible",
        defaultFolder: config.default_folder,
        customHost: null,
        signatureExpiresIn: 3600,
      });
      const read = res.body.data.result.read;
      expect(read).toMatchObject({ success: true, prefix: config.default_folder });
      expect(read.objectCount).toBeGreaterThanOrEqual(1);
      expect(read.firstObjects[0]).toMatchObject({ key: expect.stringMatching(/^\.clipshare-test-/) });
    } finally {
      await swift.cleanup();
    }
  });
});
