/**
 * Screenshot tools over real HTTP: the request ShareX builds from the .sxcu
 * the key-management page hands out (multipart form, field name from the
 * config; JSON body for text), and the Flameshot curl one-liner run by a real
 * shell. The links they read back open the share, and the deletion link asks
 * before it deletes.
 */
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import { promisify } from "node:util";
import { curlUploadCommand, Permission, type SharexConfig, sharexConfigs } from "@clipshare/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveApp } from "../../src/http/node-server";
import { createTestApp, type TestApp } from "../support/test-app";

let t: TestApp;
let server: ReturnType<typeof serveApp>;
let base: string;
let key: string;

beforeAll(async () => {
  t = await createTestApp();
  key = (await t.createApiKey(Permission.TEXT | Permission.FILE_SHARE)).key;
  server = serveApp(t.app, { port: 0, hostname: "127.0.0.1", log: t.ctx.log });
  await new Promise<void>((r) => server.once("listening", () => r()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
  await t.close();
});

/** A JSON answer with the `data` fields these tests read. */
const readJson = (r: Response) =>
  r.json() as Promise<{ data: { downloadUrl: string; content: string } & Record<string, unknown> }>;

/** ShareX's {json:a.b} syntax, applied to a parsed answer. */
function sharexJson(template: string, answer: unknown): string {
  return template.replace(/\{json:([^}]+)\}/g, (_, route: string) =>
    String(
      route.split(".").reduce<unknown>((v, k) => (v as Record<string, unknown> | undefined)?.[k], answer),
    ),
  );
}

/** The multipart request ShareX sends for a file uploader: its own boundary, one part named by FileFormName. */
async function sharexFileUpload(config: SharexConfig, name: string, bytes: Buffer, type: string) {
  const boundary = `--------------------${randomBytes(8).toString("hex")}`;
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${config.FileFormName}"; filename="${name}"\r\nContent-Type: ${type}\r\n\r\n`,
    ),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return fetch(config.RequestURL, {
    method: config.RequestMethod,
    headers: {
      ...config.Headers,
      "Content-Type": `multipart/form-data; boundary=${boundary}`,
      "User-Agent": "ShareX/15.0.0",
    },
    body,
  });
}

describe("ShareX and Flameshot", () => {
  it("a ShareX image upload lands as a file share; its URL opens it, its deletion URL deletes it after a confirm", async () => {
    const { file } = sharexConfigs(base, key);
    const png = Buffer.concat([Buffer.from("89504e470d0a1a0a", "hex"), randomBytes(5000)]);
    const res = await sharexFileUpload(file, "Screenshot 2026-11-23.png", png, "image/png");
    expect(res.status).toBe(201);
    const answer = await res.json();
    const url = sharexJson(file.URL, answer);
    const slug = url.match(/\/file\/([^/]+)$/)?.[1];
    expect(url).toBe(`${base}/file/${slug}`);

    const share = await fetch(`${base}/api/public/files/${slug}`).then(readJson);
    expect(share.data).toMatchObject({
      filename: "Screenshot 2026-11-23.png",
      size: png.length,
      mimetype: "image/png",
    });
    const download = await fetch(new URL(share.data.downloadUrl, base));
    expect(Buffer.from(await download.arrayBuffer()).equals(png)).toBe(true);

    const deletion = sharexJson(file.DeletionURL!, answer);
    // Opening the link (browser, link preview) deletes nothing.
    const confirm = await fetch(deletion);
    expect(confirm.status).toBe(200);
    expect(await confirm.text()).toContain('<form method="post">');
    // The confirm page runs no script and cannot be framed into a click on "Delete".
    const policy = confirm.headers.get("content-security-policy") ?? "";
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).toContain("form-action 'self'");
    expect(confirm.headers.get("x-frame-options")).toBe("DENY");
    expect((await fetch(`${base}/api/public/files/${slug}`)).status).toBe(200);
    // A forged token is refused.
    const forged = deletion.replace(/token=[^&]+/, "token=AAAA");
    expect((await fetch(forged, { method: "POST" })).status).toBe(404);

    const deleted = await fetch(deletion, { method: "POST", headers: { accept: "application/json" } });
    expect(deleted.status).toBe(200);
    expect(await deleted.json()).toMatchObject({ success: true, message: "File deleted" });
    expect((await fetch(`${base}/api/public/files/${slug}`)).status).toBe(404);
    const again = await fetch(deletion, { method: "POST" });
    expect(again.status).toBe(404);
  });

  it("a ShareX text upload becomes a paste at the URL it reads back", async () => {
    const { text } = sharexConfigs(base, key);
    const input = 'line one\n"quoted" and \\ back\n';
    // ShareX puts {input} into the Data template JSON-escaped.
    const body = text.Data!.replace("{input}", JSON.stringify(input).slice(1, -1));
    const res = await fetch(text.RequestURL, {
      method: text.RequestMethod,
      headers: { ...text.Headers, "Content-Type": "application/json; charset=UTF-8" },
      body,
    });
    expect(res.status).toBe(201);
    const url = sharexJson(text.URL, await res.json());
    expect(url).toMatch(new RegExp(`^${base}/paste/[A-Za-z0-9_-]+$`));
    const slug = url.slice(`${base}/paste/`.length);
    const paste = await fetch(`${base}/api/paste/${slug}`).then(readJson);
    expect(paste.data.content).toBe(input);
  });

  it("a wrong key gets an answer ShareX shows as its error message", async () => {
    const { file } = sharexConfigs(base, "wrong-key");
    const res = await sharexFileUpload(file, "a.png", randomBytes(10), "image/png");
    expect(res.status).toBe(401);
    expect(sharexJson(file.ErrorMessage, await res.json())).not.toBe("undefined");
  });

  it("the Flameshot curl one-liner prints the share link", async () => {
    const command = curlUploadCommand(base, key, "printf 'PNG screenshot bytes'");
    const { stdout } = await promisify(execFile)("sh", ["-c", command]);
    const url = stdout.trim();
    expect(url).toMatch(new RegExp(`^${base}/file/[A-Za-z0-9_-]+$`));
    const share = await fetch(`${base}/api/public/files/${url.split("/").pop()}`).then(readJson);
    expect(share.data).toMatchObject({ filename: "screenshot.png", size: 20 });
  });
});
