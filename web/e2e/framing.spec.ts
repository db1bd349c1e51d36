import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Frame, Page } from "@playwright/test";
import { adminToken, createFileShare, createPaste, useAdminSession } from "./support/factories";
import { expect, test } from "./support/fixtures";

/**
 * Clickjacking: a page on another origin (a second loopback server) tries to
 * show the signed-in admin panel in an iframe. The app's Content-Security-Policy
 * (frame-ancestors 'none') and X-Frame-Options: DENY must keep it out, while the
 * same foreign page can frame a plain API response of the same server, so the
 * setup itself does allow framing this server. Inline PDFs carry a strict
 * policy of their own that still lets the browser's viewer render them inside
 * the app, but not inside a foreign page.
 */
let foreign: Server;
let foreignOrigin: string;

test.beforeAll(async () => {
  foreign = createServer((req, res) => {
    const target = new URL(req.url ?? "/", "http://x").searchParams.get("src") ?? "";
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(`<!doctype html><title>Foreign page</title><h1>Win a prize</h1>
<iframe id="victim" src="${target.replace(/"/g, "&quot;")}" width="900" height="600"></iframe>`);
  });
  await new Promise<void>((resolve) => foreign.listen(0, "127.0.0.1", resolve));
  // "localhost" and "127.0.0.1" are different origins (and sites) to the browser.
  foreignOrigin = `http://localhost:${(foreign.address() as AddressInfo).port}`;
});

test.afterAll(async () => {
  await new Promise((resolve) => foreign.close(resolve));
});

/** A one-page PDF with a line of text, built by hand (objects, xref table, trailer). */
function onePagePdf(text: string): Buffer {
  const content = `BT /F1 18 Tf 20 80 Td (${text}) Tj ET`;
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 144] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  ];
  let pdf = "%PDF-1.4\n";
  const offsets = objects.map((body, i) => {
    const offset = pdf.length;
    pdf += `${i + 1} 0 obj\n${body}\nendobj\n`;
    return offset;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) pdf += `${String(offset).padStart(10, "0")} 00000 n \n`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, "latin1");
}

/** Chromium shows a PDF through its viewer extension, in a frame of its own. */
const pdfViewerShown = (page: Page) => page.frames().some((f) => f.url().startsWith("chrome-extension://"));

function victimFrame(page: Page): Frame {
  const frame = page.frames().find((f) => f !== page.mainFrame());
  if (!frame) throw new Error("the foreign page has no iframe");
  return frame;
}

async function openForeignPage(page: Page, src: string): Promise<Frame> {
  await page.goto(`${foreignOrigin}/?src=${encodeURIComponent(src)}`);
  await expect(page.getByRole("heading", { name: "Win a prize" })).toBeVisible();
  await page.locator("#victim").waitFor();
  // Let the frame's navigation settle (loaded or refused).
  await page.waitForLoadState("load");
  return victimFrame(page);
}

test("a foreign page cannot frame the signed-in admin panel", async ({
  page,
  request,
  baseURL,
  consoleGuard,
}) => {
  // Chromium logs the refusal as a console error on the framing page; that is the point.
  consoleGuard.allow(/violates the following Content Security Policy directive: "frame-ancestors 'none'"/);
  const token = await adminToken(request);
  await useAdminSession(page, token);
  await expect(page.getByRole("heading", { name: "Admin panel" })).toBeVisible();

  // Control: the same foreign page does show a response of this server that carries no framing rule.
  const control = await openForeignPage(page, `${baseURL}/api/health`);
  await expect(control.locator("body")).toContainText('"status":"ok"');

  const frame = await openForeignPage(page, `${baseURL}/admin`);
  // Give a framed app every chance to render before checking that it did not.
  await page.waitForTimeout(1500);
  expect(await frame.locator("#root").count()).toBe(0);
  expect(await frame.getByRole("heading", { name: "Admin panel" }).count()).toBe(0);
  expect(frame.url()).not.toBe(`${baseURL}/admin`);

  const admin = await page.request.get(`${baseURL}/admin`);
  expect(admin.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");
  expect(admin.headers()["x-frame-options"]).toBe("DENY");
});

test("the app runs under its policy: no script, style or connection is refused", async ({
  page,
  request,
}) => {
  const violations: string[] = [];
  await page.exposeFunction("reportViolation", (v: string) => violations.push(v));
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) =>
      (window as unknown as { reportViolation(v: string): void }).reportViolation(
        `${e.violatedDirective} ${e.blockedURI}`,
      ),
    );
  });
  const token = await adminToken(request);
  const { slug } = await createPaste(request, `Bearer ${token}`, {
    content: "# Heading\n\n- [x] done\n\n```js\nconsole.log(1)\n```\n",
  });

  await page.goto("/");
  await expect(page.locator("#root")).not.toBeEmpty();
  await page.goto(`/paste/${slug}`);
  await expect(page.getByRole("heading", { name: "Heading" })).toBeVisible();
  await useAdminSession(page, token);
  await expect(page.getByRole("heading", { name: "Admin panel" })).toBeVisible();
  expect(violations).toEqual([]);
});

test("an inline PDF renders in the share page under its strict policy, but not in a foreign page", async ({
  page,
  request,
  baseURL,
  consoleGuard,
}) => {
  consoleGuard.allow(/violates the following Content Security Policy directive: "frame-ancestors 'self'"/);
  const token = await adminToken(request);
  const { slug } = await createFileShare(request, token, "policy.pdf", onePagePdf("Hello PDF"));

  await page.goto(`/file/${slug}`);
  const framed = page.locator("iframe[src*='/api/file-view/']");
  await expect(framed).toBeVisible();
  await expect.poll(() => pdfViewerShown(page)).toBe(true);
  const src = new URL((await framed.getAttribute("src"))!, baseURL).toString();

  await openForeignPage(page, src);
  await page.waitForTimeout(1500);
  expect(pdfViewerShown(page)).toBe(false);

  const policy = (await page.request.get(src)).headers()["content-security-policy"] ?? "";
  expect(policy).toContain("default-src 'none'");
  expect(policy).toContain("frame-ancestors 'self'");
  expect(policy).not.toContain("sandbox");
});
