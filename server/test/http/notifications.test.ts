/**
 * Notifications against real receivers on loopback (support/notification-receivers.ts): a
 * webhook receiver that checks nothing itself (the test verifies the signature as a receiver
 * would) and an SMTP server. Deliveries go through the task runner; the test waits for the
 * delivery log, never for a fixed time. SQLite and, with CLIPSHARE_TEST_DB=postgres, PostgreSQL.
 */
import { createHmac } from "node:crypto";
import {
  accountNotificationDefaults,
  NOTIFICATION_EVENTS,
  type notificationDelivery,
  notificationDeliveryList,
  notificationRule,
  notificationSettings,
  Permission,
  WEBHOOK_HEADERS,
} from "@clipshare/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type SmtpReceiver,
  startSmtpReceiver,
  startWebhookReceiver,
  type WebhookReceiver,
} from "../support/notification-receivers";
import { createTestApp, type TestApp } from "../support/test-app";

let t: TestApp;
let token: string;
let hooks: WebhookReceiver;
let smtp: SmtpReceiver;
let secret: string;

beforeAll(async () => {
  hooks = await startWebhookReceiver();
  smtp = await startSmtpReceiver();
  // The receiver is on loopback: reachable only because URL_FETCH_ALLOW lists it.
  t = await createTestApp({ URL_FETCH_ALLOW: `127.0.0.1:${hooks.port}` });
  token = await t.adminToken();
  const res = await t.request("PUT", "/api/admin/notifications/settings", {
    token,
    body: {
      smtp_host: "127.0.0.1",
      smtp_port: smtp.port,
      smtp_security: "none",
      smtp_from: "clipshare@example.test",
      default_email: null,
      default_webhook_url: hooks.url("/default"),
    },
  });
  expect(res.status, res.text).toBe(200);
  secret = notificationSettings.parse(res.body.data).webhook_secret;
});

afterAll(async () => {
  await t?.close();
  await hooks?.close();
  await smtp?.close();
});

type Delivery = ReturnType<typeof notificationDelivery.parse>;

async function deliveries(): Promise<Delivery[]> {
  const res = await t.request("GET", "/api/admin/notifications/deliveries?limit=200", { token });
  expect(res.status, res.text).toBe(200);
  return notificationDeliveryList.parse(res.body.data).deliveries;
}

/** Waits until a delivery matching `match` has `status` (the runner sends in the background). */
async function settled(match: (d: Delivery) => boolean, status: Delivery["status"]): Promise<Delivery> {
  for (let i = 0; i < 300; i++) {
    const found = (await deliveries()).find(match);
    if (found?.status === status) return found;
    t.ctx.fs.runner.wake();
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`No ${status} delivery: ${JSON.stringify(await deliveries())}`);
}

const hooksFor = (event: string, slug: string) =>
  hooks.received.filter((h) => h.headers["x-clipshare-event"] === event && h.body.includes(slug));

/** What a receiver does: recompute the signature over "<timestamp>.<body>" with the shared secret. */
function signatureValid(hook: { headers: Record<string, unknown>; body: string }): boolean {
  const timestamp = hook.headers[WEBHOOK_HEADERS.timestamp.toLowerCase()];
  const expected = `sha256=${createHmac("sha256", secret).update(`${timestamp}.${hook.body}`).digest("hex")}`;
  return hook.headers[WEBHOOK_HEADERS.signature.toLowerCase()] === expected;
}

async function paste(body: Record<string, unknown>) {
  const res = await t.request("POST", "/api/paste", { token, body: { content: "notify me", ...body } });
  expect(res.status, res.text).toBeLessThan(300);
  return res.body.data as { id?: string; slug: string };
}

const pasteId = async (slug: string) =>
  (await t.ctx.db.selectFrom("pastes").select("id").where("slug", "=", slug).executeTakeFirstOrThrow()).id;

describe("webhooks", () => {
  it("a share's first view is delivered to the receiver as JSON with a valid HMAC-SHA256 signature", async () => {
    const { slug } = await paste({});
    expect((await t.request("GET", `/api/paste/${slug}`)).status).toBe(200);
    const delivery = await settled(
      (d) => d.event === "share_opened" && d.target === hooks.url("/default"),
      "delivered",
    );
    const [hook] = hooksFor("share_opened", slug);
    expect(hook, "the receiver got it").toBeDefined();
    expect(signatureValid(hook!)).toBe(true);
    const body = JSON.parse(hook!.body);
    expect(body).toMatchObject({ id: delivery.id, event: "share_opened", subject: { kind: "paste", slug } });
    expect(hook!.headers[WEBHOOK_HEADERS.delivery.toLowerCase()]).toBe(delivery.id);
    // A tampered body does not verify.
    expect(signatureValid({ ...hook!, body: hook!.body.replace(slug, "other") })).toBe(false);
  });

  it("a receiver answering 500 gets the delivery again after the backoff; the log shows both attempts", async () => {
    const { slug } = await paste({});
    hooks.failNext(1, 500);
    expect((await t.request("GET", `/api/paste/${slug}`)).status).toBe(200);
    const id = await pasteId(slug);
    // Pending again after its first attempt (not the pending of before it).
    const first = await settled(
      (d) => d.event === "share_opened" && d.subject_id === id && d.attempts === 1,
      "pending",
    );
    expect(first).toMatchObject({ attempts: 1, last_status: 500 });
    expect(Date.parse(first.next_attempt_at!)).toBeGreaterThan(Date.now() + 5_000);
    // The backoff's wait, cut short: the retry is due now.
    await t.ctx.db
      .updateTable("tasks")
      .set({ run_after: new Date().toISOString() })
      .where("type", "=", "notify")
      .where("status", "=", "pending")
      .execute();
    const done = await settled((d) => d.id === first.id, "delivered");
    expect(done).toMatchObject({ attempts: 2, last_status: 200, last_error: null });
    const calls = hooksFor("share_opened", slug);
    expect(calls.map((h) => h.status)).toEqual([500, 200]);
    expect(calls.every(signatureValid)).toBe(true);
  });

  it("a webhook to 169.254.169.254 (cloud metadata) is refused when set, as a default or for a share", async () => {
    const settings = await t.request("PUT", "/api/admin/notifications/settings", {
      token,
      body: { default_webhook_url: "http://169.254.169.254/latest/meta-data/" },
    });
    expect(settings.status).toBe(400);
    expect(settings.body.error).toBe("url_not_allowed");
    const { slug } = await paste({});
    const rule = await t.request("PUT", `/api/notifications/rules/paste/${await pasteId(slug)}`, {
      token,
      body: { webhook_url: "http://169.254.169.254/hook" },
    });
    expect(rule.status).toBe(400);
    expect(rule.body.error).toBe("url_not_allowed");
  });

  it("a name that leads to a private address is refused at sending and not retried", async () => {
    const { slug } = await paste({});
    const id = await pasteId(slug);
    // localhost:<port> is not on URL_FETCH_ALLOW (only 127.0.0.1:<port> is).
    const rule = await t.request("PUT", `/api/notifications/rules/paste/${id}`, {
      token,
      body: { webhook_url: `http://localhost:${hooks.port}/private`, events: ["share_opened"] },
    });
    expect(rule.status, rule.text).toBe(200);
    expect((await t.request("GET", `/api/paste/${slug}`)).status).toBe(200);
    const failed = await settled((d) => d.subject_id === id, "failed");
    expect(failed.attempts).toBe(1);
    expect(failed.last_error).toMatch(/not allowed|private|loopback/i);
    expect(hooks.received.some((h) => h.body.includes(slug))).toBe(false);
  });

  it("an event emitted twice and a delivery's task run twice send once", async () => {
    const { slug } = await paste({});
    const id = await pasteId(slug);
    const subject = (await t.ctx.notifications.subject("paste", id))!;
    expect(await t.ctx.notifications.emit("share_last_view", subject)).toBe(1);
    expect(await t.ctx.notifications.emit("share_last_view", subject)).toBe(0);
    const delivery = await settled((d) => d.subject_id === id && d.event === "share_last_view", "delivered");
    // A second task for the same delivery (another instance, a resumed run) finds it sent.
    await t.ctx.fs.tasks.create({ kind: "admin", adminId: "x", username: "admin" }, "notify", {
      delivery_id: delivery.id,
    });
    t.ctx.fs.runner.wake();
    await t.ctx.fs.runner.idle();
    expect(hooksFor("share_last_view", slug)).toHaveLength(1);
  });

  it("a share that expired is notified once by the sweep", async () => {
    const { slug } = await paste({ expires_in: 1 });
    const id = await pasteId(slug);
    await t.ctx.db
      .updateTable("pastes")
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where("id", "=", id)
      .execute();
    expect((await t.ctx.notifications.sweep()).expired).toBe(1);
    expect((await t.ctx.notifications.sweep()).expired).toBe(0);
    await settled((d) => d.subject_id === id && d.event === "share_expired", "delivered");
    expect(hooksFor("share_expired", slug)).toHaveLength(1);
  });

  it("notify tasks stay out of the owner's task list", async () => {
    const res = await t.request("GET", "/api/fs/tasks", { token });
    expect(res.status, res.text).toBe(200);
    const items = (res.body.data.items ?? res.body.data.tasks ?? res.body.data) as Array<{ type: string }>;
    expect(items.some((task) => task.type === "notify")).toBe(false);
  });
});

describe("e-mail", () => {
  it("a file request's received file is e-mailed through the SMTP server", async () => {
    const created = await t.request("POST", "/api/requests", {
      token,
      body: { title: "Tax papers", target: { kind: "share" } },
    });
    expect(created.status, created.text).toBe(201);
    const request = created.body.data as { id: string; slug: string };
    const rule = await t.request("PUT", `/api/notifications/rules/request/${request.id}`, {
      token,
      body: { email: "owner@example.test", events: ["request_received"] },
    });
    expect(notificationRule.parse(rule.body.data)).toMatchObject({ uses_defaults: false, webhook_url: null });
    const bytes = Buffer.from("receipt 2026");
    const started = await t.request("POST", `/api/public/requests/${request.slug}/uploads`, {
      body: {
        filename: "receipt.txt",
        size: bytes.length,
        part_size: bytes.length,
        part_count: 1,
        uploader_name: "Ana",
      },
    });
    expect(started.status, started.text).toBe(201);
    const part = started.body.data.presigned_urls[0] as { url: string };
    const u = new URL(part.url);
    const put = await t.app.request(`${u.pathname}${u.search}`, {
      method: "PUT",
      body: new Uint8Array(bytes),
    });
    expect(put.status).toBe(200);
    const complete = await t.request(
      "POST",
      `/api/public/requests/${request.slug}/uploads/${started.body.data.upload_id}/complete`,
      { body: { parts: [{ partNumber: 1, etag: put.headers.get("etag")!.replace(/"/g, "") }] } },
    );
    expect(complete.status, complete.text).toBe(200);
    const delivery = await settled((d) => d.subject_id === request.id && d.channel === "email", "delivered");
    expect(delivery).toMatchObject({ target: "owner@example.test", last_status: 250 });
    const mail = smtp.messages.find((m) => m.raw.includes("Tax papers"));
    expect(mail, "the SMTP server got the message").toBeDefined();
    expect(mail!.to).toEqual(["owner@example.test"]);
    expect(mail!.from).toBe("clipshare@example.test");
    expect(mail!.raw).toContain("receipt.txt");
    expect(mail!.raw).toContain("Ana");
  });

  it("the settings never answer the SMTP password; a test e-mail goes to the default address", async () => {
    const res = await t.request("PUT", "/api/admin/notifications/settings", {
      token,
      body: { smtp_password: "hunter2", default_email: "admin@example.test" },
    });
    expect(res.text).not.toContain("hunter2");
    expect(res.body.data).toMatchObject({
      has_smtp_password: true,
      default_events: [...NOTIFICATION_EVENTS],
    });
    // The stored password is encrypted.
    const row = await t.ctx.db.selectFrom("notification_settings").selectAll().executeTakeFirstOrThrow();
    expect(row.smtp_password_enc).not.toContain("hunter2");
    await t.request("PUT", "/api/admin/notifications/settings", { token, body: { smtp_password: null } });
    const test = await t.request("POST", "/api/admin/notifications/test", {
      token,
      body: { channel: "email" },
    });
    expect(test.status, test.text).toBe(202);
    await settled((d) => d.id === test.body.data.id, "delivered");
    expect(smtp.messages.some((m) => m.to.includes("admin@example.test"))).toBe(true);
  });

  it("a key may not read the settings or the log, and sets rules only on its own shares", async () => {
    const { key } = await t.createApiKey(Permission.TEXT);
    expect((await t.request("GET", "/api/admin/notifications/settings", { apiKey: key })).status).toBe(403);
    expect((await t.request("GET", "/api/admin/notifications/deliveries", { apiKey: key })).status).toBe(403);
    const { slug } = await paste({});
    const foreign = await t.request("PUT", `/api/notifications/rules/paste/${await pasteId(slug)}`, {
      apiKey: key,
      body: { email: "key@example.test" },
    });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toBe("notification_subject_not_found");
  });
});

describe("a user's own defaults", () => {
  /** The administrator's defaults as a user's answer shows them (other tests change them). */
  const adminDefaults = async () => {
    const res = await t.request("GET", "/api/admin/notifications/settings", { token });
    const settings = notificationSettings.parse(res.body.data);
    return {
      uses_admin_defaults: true,
      email: settings.default_email,
      webhook_url: settings.default_webhook_url,
      events: settings.default_events,
    };
  };

  it("send the user's shares without a rule to the user's webhook, not the administrator's", async () => {
    const u = await t.createUser({ permissions: Permission.TEXT });
    const before = await t.request("GET", "/api/account/notifications", { token: u.token });
    expect(before.status, before.text).toBe(200);
    expect(accountNotificationDefaults.parse(before.body.data)).toEqual(await adminDefaults());

    const set = await t.request("PUT", "/api/account/notifications", {
      token: u.token,
      body: { webhook_url: hooks.url("/mine"), events: ["share_opened"] },
    });
    expect(set.status, set.text).toBe(200);
    expect(set.body.data).toMatchObject({ uses_admin_defaults: false, webhook_url: hooks.url("/mine") });

    const made = await t.request("POST", "/api/paste", { token: u.token, body: { content: "mine" } });
    expect(made.status, made.text).toBeLessThan(300);
    const slug = made.body.data.slug as string;
    const id = await pasteId(slug);
    const rule = await t.request("GET", `/api/notifications/rules/paste/${id}`, { token: u.token });
    expect(rule.body.data).toMatchObject({ uses_defaults: true, webhook_url: hooks.url("/mine") });

    expect((await t.request("GET", `/api/paste/${slug}`)).status).toBe(200);
    await settled((d) => d.subject_id === id && d.target === hooks.url("/mine"), "delivered");
    expect((await deliveries()).filter((d) => d.subject_id === id).map((d) => d.target)).toEqual([
      hooks.url("/mine"),
    ]);
  });

  it("are refused for an API key and for a webhook to a private address; DELETE goes back to the administrator's", async () => {
    const u = await t.createUser({ permissions: Permission.TEXT });
    const { key } = await t.createApiKey(Permission.TEXT);
    const byKey = await t.request("GET", "/api/account/notifications", { apiKey: key });
    expect(byKey.status).toBe(403);
    expect(byKey.body.error).toBe("account_required");

    const metadata = await t.request("PUT", "/api/account/notifications", {
      token: u.token,
      body: { webhook_url: "http://169.254.169.254/latest" },
    });
    expect(metadata.status).toBe(400);
    expect(metadata.body.error).toBe("url_not_allowed");
    const bad = await t.request("PUT", "/api/account/notifications", {
      token: u.token,
      body: { email: "nope" },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.success).toBe(false);

    await t.request("PUT", "/api/account/notifications", {
      token: u.token,
      body: { email: "me@example.test" },
    });
    const reset = await t.request("DELETE", "/api/account/notifications", { token: u.token });
    expect(reset.status, reset.text).toBe(200);
    expect(reset.body.data).toEqual(await adminDefaults());
  });
});
