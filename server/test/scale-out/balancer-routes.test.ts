/**
 * Every route group through nginx in front of two instances: consecutive requests land on
 * different instances (round robin, no sticky sessions), and each flow still works because all
 * state is in PostgreSQL and S3.
 */
import { createHash, randomBytes } from "node:crypto";
import { Permission } from "@clipshare/shared";
import { expect, it } from "vitest";
import { list, mustPut, names, waitForTask } from "../support/fs-helpers";
import { unzipTo } from "../support/unzip";
import { describeScaleOut } from "./cluster";

const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");
const LOCK_BODY = `<D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockinfo>`;

describeScaleOut("every route group through the balancer", (cluster) => {
  /** Runs a flow and checks that both instances answered part of it. */
  async function onBoth(flow: () => Promise<void>) {
    const { lb } = cluster();
    const from = lb.served.length;
    await flow();
    expect(lb.servedSince(from)).toEqual(["a", "b"]);
  }

  it("auth: login, token check and logout hold on both instances", async () => {
    const { lb } = cluster();
    await onBoth(async () => {
      const login = await lb.request("POST", "/api/admin/login", {
        body: { username: "admin", password: "scale-out-password-1" },
      });
      expect(login.status, login.text).toBe(200);
      const token = login.body.data.token as string;
      for (let i = 0; i < 4; i++)
        expect((await lb.request("GET", "/api/test/admin-token", { token })).status).toBe(200);
      expect((await lb.request("POST", "/api/admin/logout", { token })).status).toBe(200);
      for (let i = 0; i < 4; i++)
        expect((await lb.request("GET", "/api/test/admin-token", { token })).status).toBe(401);
    });
  });

  it("keys: a key created, used, narrowed and deleted", async () => {
    const { lb, token } = cluster();
    await onBoth(async () => {
      const made = await lb.request("POST", "/api/admin/api-keys", {
        token,
        body: { name: "lb-key", permissions: Permission.TEXT, expires_at: "never" },
      });
      expect(made.status, made.text).toBe(201);
      const { id, key } = made.body.data;
      for (let i = 0; i < 2; i++) {
        const who = await lb.request("GET", "/api/test/api-key", { apiKey: key });
        expect(who.body.data).toMatchObject({ name: "lb-key", permissions: { text: true, file: false } });
      }
      expect(
        (await lb.request("PUT", `/api/admin/api-keys/${id}`, { token, body: { permissions: 0 } })).status,
      ).toBe(200);
      for (let i = 0; i < 2; i++)
        expect((await lb.request("POST", "/api/paste", { apiKey: key, body: { content: "x" } })).status).toBe(
          403,
        );
      expect((await lb.request("DELETE", `/api/admin/api-keys/${id}`, { token })).status).toBe(200);
      for (let i = 0; i < 2; i++)
        expect((await lb.request("GET", "/api/test/api-key", { apiKey: key })).status).toBe(401);
    });
  });

  it("pastes: create, view, raw, edit, list, delete", async () => {
    const { lb, token } = cluster();
    await onBoth(async () => {
      const made = await lb.request("POST", "/api/paste", {
        token,
        body: { content: "hello from the balancer", slug: `lb-${randomBytes(3).toString("hex")}` },
      });
      expect(made.status, made.text).toBeLessThan(300);
      const slug = made.body.data.slug as string;
      expect((await lb.request("GET", `/api/paste/${slug}`)).body.data.content).toBe(
        "hello from the balancer",
      );
      expect((await lb.request("GET", `/api/raw/${slug}`)).text).toBe("hello from the balancer");
      const edited = await lb.request("PUT", `/api/pastes/${slug}`, { token, body: { content: "edited" } });
      expect(edited.status, edited.text).toBe(200);
      expect((await lb.request("GET", `/api/raw/${slug}`)).text).toBe("edited");
      const listed = await lb.request("GET", "/api/pastes?limit=50", { token });
      const row = (listed.body.data as Array<{ id: string; slug: string }>).find((p) => p.slug === slug);
      expect(row).toBeDefined();
      const gone = await lb.request("DELETE", "/api/pastes/batch-delete", {
        token,
        body: { ids: [row!.id] },
      });
      expect(gone.status, gone.text).toBe(200);
      expect((await lb.request("GET", `/api/paste/${slug}`)).status).toBe(404);
      expect((await lb.request("GET", `/api/paste/${slug}`)).status).toBe(404);
    });
  });

  it("files: a share uploaded, viewed, downloaded, protected and deleted", async () => {
    const { lb, token, s3ConfigId } = cluster();
    const bytes = randomBytes(300_000);
    await onBoth(async () => {
      const up = await lb.request(
        "PUT",
        `/api/upload-direct/report.bin?s3_config_id=${s3ConfigId}&slug=lb-${randomBytes(3).toString("hex")}`,
        { token, rawBody: new Uint8Array(bytes), headers: { "content-type": "application/octet-stream" } },
      );
      expect(up.status, up.text).toBeLessThan(300);
      const { id, slug } = up.body.data;
      for (let i = 0; i < 2; i++) {
        const pub = await lb.request("GET", `/api/public/files/${slug}`);
        expect(pub.status, pub.text).toBe(200);
        const dl = await lb.fetch(pub.body.data.downloadUrl);
        expect(dl.status).toBe(200);
        expect(sha(Buffer.from(await dl.arrayBuffer()))).toBe(sha(bytes));
      }
      expect(
        (await lb.request("PUT", `/api/files/${id}`, { token, body: { password: "pw-123456" } })).status,
      ).toBe(200);
      expect((await lb.request("GET", `/api/public/files/${slug}`)).body.data.requires_password).toBe(true);
      const ok = await lb.request("POST", `/api/public/files/${slug}/verify`, {
        body: { password: "pw-123456" },
      });
      expect(ok.status, ok.text).toBe(200);
      const del = await lb.request("DELETE", "/api/files/batch-delete", { token, body: { ids: [id] } });
      expect(del.body.data.success).toBe(1);
      expect((await lb.request("GET", `/api/public/files/${slug}`)).status).toBe(404);
    });
  });

  it("uploads: form upload, raw PUT and an explorer multipart upload", async () => {
    const { lb, token } = cluster();
    const auth = { token };
    const part = randomBytes(5 * 1024 * 1024);
    const tail = randomBytes(1000);
    await onBoth(async () => {
      const form = new FormData();
      form.append("path", "/s3/up/");
      form.append("file", new Blob([new Uint8Array(tail)]), "form.bin");
      const formed = await lb.fetch("/api/fs/upload", {
        method: "POST",
        headers: { authorization: `Bearer ${token}` },
        body: form,
      });
      expect(formed.status, await formed.clone().text()).toBeLessThan(300);
      await mustPut(lb, "/s3/up/raw.txt", "raw body", auth);
      const init = await lb.request("POST", "/api/fs/multipart/init", {
        token,
        body: {
          path: "/s3/up/",
          fileName: "big.bin",
          fileSize: part.length + tail.length,
          partSize: part.length,
          partCount: 2,
        },
      });
      expect(init.status, init.text).toBe(200);
      const parts = [];
      for (const [i, body] of [part, tail].entries()) {
        const put = await fetch(init.body.data.presignedUrls[i].url, {
          method: "PUT",
          body: new Uint8Array(body),
        });
        expect(put.status).toBe(200);
        parts.push({ partNumber: i + 1, etag: put.headers.get("etag")!.replace(/"/g, "") });
      }
      const done = await lb.request("POST", "/api/fs/multipart/complete", {
        token,
        body: {
          path: "/s3/up/",
          uploadId: init.body.data.uploadId,
          parts,
          fileName: "big.bin",
          fileSize: part.length + tail.length,
        },
      });
      expect(done.status, done.text).toBe(200);
      expect(await names(lb, "/s3/up", auth)).toEqual(["big.bin", "form.bin", "raw.txt"]);
      const big = await lb.fetch(`/api/fs/download?path=${encodeURIComponent("/s3/up/big.bin")}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(sha(Buffer.from(await big.arrayBuffer()))).toBe(sha(Buffer.concat([part, tail])));
    });
  });

  it("fs: mkdir, list, get, rename, search, remove", async () => {
    const { lb, token } = cluster();
    const auth = { token };
    await onBoth(async () => {
      expect((await lb.request("POST", "/api/fs/mkdir", { token, body: { path: "/s3/dir/" } })).status).toBe(
        201,
      );
      await mustPut(lb, "/s3/dir/needle-one.txt", "1", auth);
      expect(await names(lb, "/s3/dir", auth)).toEqual(["needle-one.txt"]);
      const got = await lb.request("GET", "/api/fs/get?path=/s3/dir/needle-one.txt", { token });
      expect(got.body.data).toMatchObject({ name: "needle-one.txt", size: 1 });
      const renamed = await lb.request("POST", "/api/fs/rename", {
        token,
        body: { oldPath: "/s3/dir/needle-one.txt", newPath: "/s3/dir/needle-two.txt" },
      });
      expect(renamed.status, renamed.text).toBe(200);
      for (let i = 0; i < 2; i++) expect(await names(lb, "/s3/dir", auth)).toEqual(["needle-two.txt"]);
      const found = await lb.request("GET", "/api/fs/search?q=needle-two&scope=global", { token });
      expect(found.body.data.results.map((r: { path: string }) => r.path)).toEqual([
        "/s3/dir/needle-two.txt",
      ]);
      const removed = await lb.request("DELETE", "/api/fs/batch-remove", {
        token,
        body: { paths: ["/s3/dir/"] },
      });
      expect(removed.status, removed.text).toBe(200);
      for (let i = 0; i < 2; i++) expect((await list(lb, "/s3/dir", auth)).status).toBe(404);
    });
  });

  it("tasks: a cross-storage copy queued on one instance, polled through both", async () => {
    const { lb, token } = cluster();
    const auth = { token };
    await onBoth(async () => {
      await mustPut(lb, "/s3/task-src/one.txt", "one", auth);
      const copy = await lb.request("POST", "/api/fs/batch-copy", {
        token,
        body: { items: [{ sourcePath: "/s3/task-src/one.txt", targetPath: "/s3b/task-dst/one.txt" }] },
      });
      expect(copy.status, copy.text).toBeLessThan(300);
      const { task } = await waitForTask(lb, copy.body.data.taskId, auth, 30_000);
      expect(task).toMatchObject({ status: "completed", processed_items: 1 });
      expect(await names(lb, "/s3b/task-dst", auth)).toEqual(["one.txt"]);
    });
  });

  it("ZIP: an archive by POST and by a signed GET link", async () => {
    const { lb, token } = cluster();
    const auth = { token };
    const a = randomBytes(70_000);
    await onBoth(async () => {
      await mustPut(lb, "/s3/zip/a.bin", a, auth);
      await mustPut(lb, "/s3/zip/b.txt", "bee", auth);
      const posted = await lb.fetch("/api/fs/zip", {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ paths: ["/s3/zip/a.bin", "/s3/zip/b.txt"] }),
      });
      expect(posted.status).toBe(200);
      const files = unzipTo(Buffer.from(await posted.arrayBuffer()));
      expect(files.get("a.bin")!.equals(a)).toBe(true);
      const link = await lb.request("POST", "/api/fs/zip/link", {
        token,
        body: { paths: ["/s3/zip/b.txt"] },
      });
      expect(link.status, link.text).toBe(200);
      for (let i = 0; i < 2; i++) {
        const res = await lb.fetch(new URL(link.body.data.url).pathname + new URL(link.body.data.url).search);
        expect(res.status).toBe(200);
        expect(
          unzipTo(Buffer.from(await res.arrayBuffer()))
            .get("b.txt")!
            .toString(),
        ).toBe("bee");
      }
    });
  });

  it("signed links: proxy links from fs/get and storage links from fs/file-link", async () => {
    const { lb, token } = cluster();
    await onBoth(async () => {
      await mustPut(lb, "/s3/links/doc.txt", "linked text", { token });
      const got = await lb.request("GET", "/api/fs/get?path=/s3/links/doc.txt", { token });
      const proxied = new URL(got.body.data.preview_url);
      expect(proxied.pathname).toBe("/api/p/s3/links/doc.txt");
      expect(proxied.searchParams.get("sign")).toBeTruthy();
      for (let i = 0; i < 2; i++) {
        const res = await lb.fetch(proxied.pathname + proxied.search);
        expect(res.status).toBe(200);
        expect(await res.text()).toBe("linked text");
      }
      const link = await lb.request("GET", "/api/fs/file-link?path=/s3/links/doc.txt&expires_in=600", {
        token,
      });
      expect(link.status, link.text).toBe(200);
      expect(await (await fetch(link.body.data.presignedUrl)).text()).toBe("linked text");
    });
  });

  it("WebDAV: PUT, PROPFIND, GET, and a lock honoured by both instances", async () => {
    const { lb } = cluster();
    const basic = `Basic ${Buffer.from("admin:scale-out-password-1").toString("base64")}`;
    // GET answers with a redirect to the object in S3 (the mount's default WebDAV policy): follow it.
    const dav = (method: string, path: string, headers: Record<string, string> = {}, body?: string) =>
      lb.fetch(path, { method, headers: { authorization: basic, ...headers }, body, redirect: "follow" });
    await onBoth(async () => {
      expect((await dav("MKCOL", "/dav/s3/webdav/")).status).toBe(201);
      expect((await dav("PUT", "/dav/s3/webdav/w.txt", {}, "v1")).status).toBe(201);
      const found = await dav("PROPFIND", "/dav/s3/webdav/", { depth: "1" });
      expect(found.status).toBe(207);
      expect(await found.text()).toContain("/dav/s3/webdav/w.txt");
      const lock = await dav("LOCK", "/dav/s3/webdav/w.txt", { timeout: "Second-60" }, LOCK_BODY);
      expect(lock.status).toBe(200);
      const lockToken = lock.headers.get("lock-token")!;
      for (let i = 0; i < 2; i++)
        expect((await dav("PUT", "/dav/s3/webdav/w.txt", {}, "intruder")).status).toBe(423);
      expect((await dav("PUT", "/dav/s3/webdav/w.txt", { if: `(${lockToken})` }, "v2")).status).toBe(204);
      expect((await dav("UNLOCK", "/dav/s3/webdav/w.txt", { "lock-token": lockToken })).status).toBe(204);
      expect((await dav("PUT", "/dav/s3/webdav/w.txt", {}, "v3")).status).toBe(204);
      for (let i = 0; i < 2; i++) expect(await (await dav("GET", "/dav/s3/webdav/w.txt")).text()).toBe("v3");
    });
  });
});
