import type { Credentials, OfflineWriteRequest } from "@clipshare/shared";
import { afterEach, describe, expect, it } from "vitest";
import type { OfflineDb, QueuedWriteType } from "./offline-db";
import {
  discardEntry,
  enqueue,
  entrySender,
  forgetQueuedCredentials,
  listQueue,
  replayQueue,
  retryEntry,
} from "./offline-queue";
import { testDb } from "./test-db";

const admin: Credentials = { type: "admin", token: "tok-1" };

function write(type: QueuedWriteType, data: unknown, credentials: Credentials | null = admin) {
  const endpoint =
    type === "paste-create" ? "/paste" : type === "paste-batch-delete" ? "/pastes/batch-delete" : "/x";
  const method = type === "paste-batch-delete" ? "DELETE" : "POST";
  return {
    type,
    endpoint,
    method,
    data,
    credentials,
    baseUrl: "https://clip.example",
  } satisfies OfflineWriteRequest<QueuedWriteType>;
}

interface Seen {
  url: string;
  method: string;
  auth: string | null;
  body: unknown;
}

/** A server answering each request in turn: a Response, or "offline" for a failed fetch. */
function server(answers: (Response | "offline")[]) {
  const seen: Seen[] = [];
  const fetchImpl = (async (url: string, init: RequestInit) => {
    const headers = new Headers(init.headers);
    seen.push({
      url,
      method: init.method ?? "GET",
      auth: headers.get("authorization"),
      body: init.body ? JSON.parse(String(init.body)) : null,
    });
    const next = answers.shift() ?? Response.json({ code: 200, message: "ok", success: true, data: null });
    if (next === "offline") throw new TypeError("Failed to fetch");
    return next;
  }) as typeof fetch;
  return { seen, send: entrySender(fetchImpl) };
}

const ok = (data: unknown = null, status = 200) =>
  Response.json({ code: status, message: "ok", success: true, data }, { status });
const refused = (status: number, error: string, message: string) =>
  Response.json({ code: status, message, success: false, error }, { status });

let db: OfflineDb;
afterEach(async () => {
  await db?.delete();
});

describe("offline queue", () => {
  it("replays in the order the writes were made, with their own credentials, and removes each success", async () => {
    db = testDb();
    await enqueue(db, write("paste-create", { content: "first" }), 1000);
    await enqueue(db, write("paste-create", { content: "second" }, { type: "apikey", key: "key-9" }), 2000);
    // Same moment: the id keeps them in order.
    await enqueue(db, write("paste-batch-delete", { ids: ["a"] }), 2000);
    const { seen, send } = server([ok({ slug: "a1" }, 201), ok({ slug: "b2" }, 201), ok({ deleted: 1 })]);

    const report = await replayQueue(db, send);

    expect(seen.map((s) => [s.method, s.url, s.auth, s.body])).toEqual([
      ["POST", "https://clip.example/api/paste", "Bearer tok-1", { content: "first" }],
      ["POST", "https://clip.example/api/paste", "ApiKey key-9", { content: "second" }],
      ["DELETE", "https://clip.example/api/pastes/batch-delete", "Bearer tok-1", { ids: ["a"] }],
    ]);
    expect(report.sent.map((r) => r.data)).toEqual([{ slug: "a1" }, { slug: "b2" }, { deleted: 1 }]);
    expect(report.touchedPastes).toBe(true);
    expect(await listQueue(db)).toEqual([]);
  });

  it("keeps a refused entry with its status and message and goes on with the next", async () => {
    db = testDb();
    await enqueue(db, write("paste-create", { content: "a", slug: "taken" }), 1);
    await enqueue(db, write("paste-create", { content: "b" }), 2);
    const { send } = server([
      refused(409, "slug_taken", "Link suffix already taken"),
      ok({ slug: "x" }, 201),
    ]);

    const report = await replayQueue(db, send);

    expect(report).toMatchObject({ failed: 1, authRequired: 0, interrupted: false });
    expect(report.sent).toHaveLength(1);
    const left = await listQueue(db);
    expect(left).toHaveLength(1);
    expect(left[0]).toMatchObject({
      status: "failed",
      httpStatus: 409,
      error: "Link suffix already taken",
      attempts: 1,
      data: { content: "a", slug: "taken" },
    });
    // A failed entry is not sent again by the next sync, only after a retry.
    const again = server([]);
    await replayQueue(db, again.send);
    expect(again.seen).toEqual([]);
  });

  it("keeps an entry refused with 401 as needing sign-in; a retry sends it with the new session", async () => {
    db = testDb();
    await enqueue(db, write("paste-create", { content: "kept" }), 1);
    const first = server([refused(401, "token_expired", "Admin token expired")]);

    const report = await replayQueue(db, first.send);

    expect(report).toMatchObject({ authRequired: 1, failed: 0, sent: [] });
    const [entry] = await listQueue(db);
    expect(entry).toMatchObject({ status: "auth_required", httpStatus: 401, data: { content: "kept" } });

    // Nobody signed in: the entry stays where it is.
    expect(await retryEntry(db, entry!.id!, null)).toBe(false);
    expect((await listQueue(db))[0]?.status).toBe("auth_required");

    expect(await retryEntry(db, entry!.id!, { type: "admin", token: "tok-2" })).toBe(true);
    const second = server([ok({ slug: "k" }, 201)]);
    await replayQueue(db, second.send);
    expect(second.seen[0]?.auth).toBe("Bearer tok-2");
    expect(await listQueue(db)).toEqual([]);
  });

  it("stops when the network is gone again and leaves the rest pending", async () => {
    db = testDb();
    await enqueue(db, write("paste-create", { content: "1" }), 1);
    await enqueue(db, write("paste-create", { content: "2" }), 2);
    await enqueue(db, write("paste-create", { content: "3" }), 3);
    const { seen, send } = server([ok({}, 201), "offline"]);

    const report = await replayQueue(db, send);

    expect(report.interrupted).toBe(true);
    expect(seen).toHaveLength(2);
    const left = await listQueue(db);
    expect(left.map((e) => [(e.data as { content: string }).content, e.status, e.attempts])).toEqual([
      ["2", "pending", 0],
      ["3", "pending", 0],
    ]);
  });

  it("a share-password check refused with 401 is a plain failure (wrong password), not a sign-in request", async () => {
    db = testDb();
    await enqueue(
      db,
      { ...write("file-verify", { password: "nope" }, null), endpoint: "/public/files/abc/verify" },
      1,
    );
    const { seen, send } = server([refused(401, "invalid_password", "Incorrect password")]);

    const report = await replayQueue(db, send);

    expect(seen[0]?.auth).toBeNull();
    expect(report).toMatchObject({ failed: 1, authRequired: 0, touchedPastes: false });
    expect((await listQueue(db))[0]).toMatchObject({ status: "failed", error: "Incorrect password" });
  });

  it("sign-out strips the credential from queued writes but keeps the writes; discard removes one", async () => {
    db = testDb();
    const id = await enqueue(db, write("paste-create", { content: "mine" }), 1);
    await enqueue(db, write("file-verify", { password: "p" }, null), 2);

    await forgetQueuedCredentials(db);

    const entries = await listQueue(db);
    expect(entries.map((e) => [e.type, e.authToken, e.status])).toEqual([
      ["paste-create", null, "auth_required"],
      ["file-verify", null, "pending"],
    ]);
    await discardEntry(db, id);
    expect((await listQueue(db)).map((e) => e.type)).toEqual(["file-verify"]);
  });
});
