/**
 * What must hold across instances, each checked on two real processes (a and b, addressed
 * directly or through nginx). Every one of these fails if the state lived in one process's memory:
 * per-process secrets, token tables, caches without invalidation, view counters, rate-limit
 * counters, lock tables, task claims or multipart sessions.
 */
import { createHash, randomBytes } from "node:crypto";
import { Permission } from "@clipshare/shared";
import pg from "pg";
import { expect, it } from "vitest";
import { list, mustPut, names } from "../support/fs-helpers";
import { unzipTo } from "../support/unzip";
import { type Client, describeScaleOut, sleep } from "./cluster";

const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");
const MiB = 1024 * 1024;
const LOCK_BODY = `<D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockinfo>`;
const pathOf = (url: string) => {
  const u = new URL(url);
  return u.pathname + u.search;
};

describeScaleOut("state shared by two instances", (cluster) => {
  it("an admin token, API key, signed link and share access token made on a work on b", async () => {
    const { a, b, token } = cluster();
    // Admin token.
    const login = await a.request("POST", "/api/admin/login", {
      body: { username: "admin", password: "scale-out-password-1" },
    });
    expect(login.instance).toBe("a");
    const onB = await b.request("GET", "/api/test/admin-token", { token: login.body.data.token });
    expect([onB.status, onB.instance]).toEqual([200, "b"]);

    // API key.
    const made = await a.request("POST", "/api/admin/api-keys", {
      token,
      body: { name: "made-on-a", permissions: Permission.TEXT | Permission.MOUNT_VIEW, expires_at: "never" },
    });
    expect(made.status, made.text).toBe(201);
    const keyOnB = await b.request("GET", "/api/test/api-key", { apiKey: made.body.data.key });
    expect([keyOnB.status, keyOnB.body.data.name]).toEqual([200, "made-on-a"]);

    // Signed links: a ZIP link and a proxy link, both signed by a.
    await mustPut(a, "/s3/signed/doc.txt", "signed on a", { token });
    const zipLink = await a.request("POST", "/api/fs/zip/link", {
      token,
      body: { paths: ["/s3/signed/doc.txt"] },
    });
    const zip = await b.fetch(pathOf(zipLink.body.data.url));
    expect(zip.status).toBe(200);
    expect(
      unzipTo(Buffer.from(await zip.arrayBuffer()))
        .get("doc.txt")
        ?.toString(),
    ).toBe("signed on a");
    const got = await a.request("GET", "/api/fs/get?path=/s3/signed/doc.txt", { token });
    const proxied = await b.fetch(pathOf(got.body.data.preview_url));
    expect([proxied.status, await proxied.text()]).toEqual([200, "signed on a"]);

    // Share access token: the password is checked on a, the token is used on b.
    const slug = `tok-${randomBytes(3).toString("hex")}`;
    await a.request("POST", "/api/paste", {
      token,
      body: { content: "behind a password", slug, password: "pw-123456" },
    });
    const unlocked = await a.request("POST", `/api/paste/${slug}`, { body: { password: "pw-123456" } });
    expect(unlocked.status, unlocked.text).toBe(200);
    const raw = await b.request(
      "GET",
      `/api/raw/${slug}?token=${encodeURIComponent(unlocked.body.data.accessToken)}`,
    );
    expect([raw.status, raw.text]).toEqual([200, "behind a password"]);
    expect(b.served).toContain("b");
  });

  it("a listing cached on a is dropped within 1 s of a write on b", async () => {
    const { a, b, token } = cluster();
    const auth = { token };
    await mustPut(a, "/s3/cached/first.txt", "1", auth);
    await list(a, "/s3/cached", auth);
    expect((await list(a, "/s3/cached", auth)).body.data.cached).toBe(true);
    const delays: number[] = [];
    for (let round = 0; round < 3; round++) {
      const name = `from-b-${round}.txt`;
      const wrote = await mustPut(b, `/s3/cached/${name}`, "2", auth);
      expect(wrote).toBeTruthy();
      const written = Date.now();
      for (;;) {
        const seen = await list(a, "/s3/cached", auth);
        if ((seen.body.data.items as Array<{ name: string }>).some((i) => i.name === name)) break;
        if (Date.now() - written > 5000) throw new Error(`a still lists its cached copy 5 s after ${name}`);
        await sleep(5);
      }
      delays.push(Date.now() - written);
      // Cached again before the next round, so each round measures an invalidation.
      expect((await list(a, "/s3/cached", auth)).body.data.cached).toBe(true);
    }
    console.log(`cache invalidation across instances: ${delays.join(" ms, ")} ms`);
    expect(Math.max(...delays)).toBeLessThan(1000);
  });

  it("200 concurrent views of a max-views-5 paste over both instances deliver it exactly 5 times", async () => {
    const { lb, token } = cluster();
    const made = await lb.request("POST", "/api/paste", {
      token,
      body: { content: "five times", maxViews: 5 },
    });
    const slug = made.body.data.slug as string;
    const from = lb.served.length;
    const views = await Promise.all(
      Array.from({ length: 200 }, () => lb.request("GET", `/api/paste/${slug}`)),
    );
    const delivered = views.filter((v) => v.status === 200 && v.body.data.content === "five times");
    expect(delivered).toHaveLength(5);
    expect(views.every((v) => v.status === 200 || v.status === 404 || v.status === 410)).toBe(true);
    expect(lb.servedSince(from)).toEqual(["a", "b"]);
    expect([404, 410]).toContain((await lb.request("GET", `/api/paste/${slug}`)).status);
  });

  it("failed logins on a and b count against one limit", async () => {
    const { a, b } = cluster();
    const username = `guess-${randomBytes(3).toString("hex")}`;
    const attempt = (c: Client) =>
      c.request("POST", "/api/admin/login", { body: { username, password: "not-the-password" } });
    // The limit is 5 per address and user name in 15 minutes: 3 on a and 2 on b reach it.
    const first = [];
    for (const c of [a, b, a, b, a]) first.push((await attempt(c)).status);
    expect(first).toEqual([401, 401, 401, 401, 401]);
    const onB = await attempt(b);
    const onA = await attempt(a);
    expect([onB.status, onB.instance, onA.status, onA.instance]).toEqual([429, "b", 429, "a"]);
  });

  it("a WebDAV LOCK taken through a blocks a PUT through b until it is released", async () => {
    const { a, b } = cluster();
    const basic = { authorization: `Basic ${Buffer.from("admin:scale-out-password-1").toString("base64")}` };
    const dav = (
      c: Client,
      method: string,
      path: string,
      headers: Record<string, string> = {},
      body?: string,
    ) => c.fetch(path, { method, headers: { ...basic, ...headers }, body });
    expect((await dav(a, "PUT", "/dav/s3/locked.txt", {}, "original")).status).toBe(201);
    const lock = await dav(a, "LOCK", "/dav/s3/locked.txt", { timeout: "Second-120" }, LOCK_BODY);
    expect(lock.status).toBe(200);
    const lockToken = lock.headers.get("lock-token")!;
    const blocked = await dav(b, "PUT", "/dav/s3/locked.txt", {}, "overwrite");
    expect([blocked.status, blocked.headers.get("x-clipshare-instance")]).toEqual([423, "b"]);
    // The lock holder may write through b, and release it there.
    expect((await dav(b, "PUT", "/dav/s3/locked.txt", { if: `(${lockToken})` }, "by holder")).status).toBe(
      204,
    );
    expect((await dav(b, "UNLOCK", "/dav/s3/locked.txt", { "lock-token": lockToken })).status).toBe(204);
    expect((await dav(a, "PUT", "/dav/s3/locked.txt", {}, "after unlock")).status).toBe(204);
  });

  it("an upload in parts started on a, resumed on b and completed on a is one correct object", async () => {
    const { a, b, token, s3ConfigId } = cluster();
    const PART = 5 * MiB;
    const file = randomBytes(2 * PART + MiB);
    const slice = (n: number) => file.subarray((n - 1) * PART, n * PART);
    const init = await a.request("POST", "/api/files/multipart/init", {
      token,
      body: {
        s3_config_id: s3ConfigId,
        filename: "split.bin",
        total_size: file.length,
        part_size: PART,
        part_count: 3,
      },
    });
    expect(init.status, init.text).toBe(200);
    const d = init.body.data;
    const put = async (url: string, n: number) => {
      const res = await fetch(url, { method: "PUT", body: new Uint8Array(slice(n)) });
      expect(res.status).toBe(200);
      return { partNumber: n, etag: res.headers.get("etag")!.replace(/"/g, "") };
    };
    const p1 = await put(d.presigned_urls[0].url, 1);
    const p3 = await put(d.presigned_urls[2].url, 3);
    const resumed = await b.request("POST", "/api/files/multipart/resume", {
      token,
      body: { file_id: d.file_id, upload_id: d.upload_id },
    });
    expect(resumed.status, resumed.text).toBe(200);
    expect(resumed.body.data.parts.map((p: { partNumber: number }) => p.partNumber)).toEqual([1, 3]);
    const p2 = await put(resumed.body.data.presigned_urls[1].url, 2);
    const done = await a.request("POST", "/api/files/multipart/complete", {
      token,
      body: { file_id: d.file_id, upload_id: d.upload_id, parts: [p1, p2, p3] },
    });
    expect(done.status, done.text).toBe(200);
    const meta = await b.request("GET", `/api/public/files/${d.slug}`);
    const body = await b.fetch(meta.body.data.downloadUrl);
    expect(sha(Buffer.from(await body.arrayBuffer()))).toBe(sha(file));
  });

  it("100 copy tasks queued through both instances run exactly once each, on both runners", async () => {
    const { lb, rig, token } = cluster();
    const auth = { token };
    await mustPut(lb, "/s3/many/source.txt", "copy me", auth);
    const db = new pg.Client({ connectionString: rig.databaseUrl });
    // Dropping the rig's database at the end ends this connection if a failure left it open.
    db.on("error", () => undefined);
    await db.connect();
    try {
      const runners = new Set<string>();
      let watching = true;
      const watch = (async () => {
        while (watching) {
          const { rows } = await db.query("SELECT claimed_by FROM tasks WHERE status = 'running'");
          for (const r of rows) runners.add(String(r.claimed_by).split("-")[0]!);
          await sleep(10);
        }
      })();
      const ids: string[] = [];
      for (let batch = 0; batch < 10; batch++) {
        const queued = await Promise.all(
          Array.from({ length: 10 }, (_, i) =>
            lb.request("POST", "/api/fs/batch-copy", {
              token,
              body: {
                items: [
                  { sourcePath: "/s3/many/source.txt", targetPath: `/s3b/many/copy-${batch * 10 + i}.txt` },
                ],
              },
            }),
          ),
        );
        for (const q of queued) {
          expect(q.status, q.text).toBeLessThan(300);
          ids.push(q.body.data.taskId);
        }
      }
      const deadline = Date.now() + 90_000;
      for (;;) {
        const { rows } = await db.query(
          "SELECT count(*)::int AS n FROM tasks WHERE id = ANY($1) AND status IN ('completed', 'failed', 'cancelled')",
          [ids],
        );
        if (rows[0].n === ids.length) break;
        if (Date.now() > deadline) throw new Error(`only ${rows[0].n} of 100 tasks finished`);
        await sleep(100);
      }
      watching = false;
      await watch;
      const { rows } = await db.query(
        "SELECT status, attempts, processed_items FROM tasks WHERE id = ANY($1)",
        [ids],
      );
      expect(rows).toHaveLength(100);
      expect(rows.every((r) => r.status === "completed" && r.attempts === 1 && r.processed_items === 1)).toBe(
        true,
      );
      expect(await names(lb, "/s3b/many", auth)).toEqual(
        Array.from({ length: 100 }, (_, i) => `copy-${i}.txt`).sort(),
      );
      expect([...runners].sort()).toEqual(["a", "b"]);
    } finally {
      await db.end();
    }
  }, 120_000);
});
