/**
 * Headers that keep the web app and inline PDFs out of foreign frames and stop
 * injected script: the app's Content-Security-Policy and X-Frame-Options (with
 * FRAME_ANCESTORS to allow named embedders), and the strict policy of inline
 * PDFs. The browser side is web/e2e/framing.spec.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/test-app";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const directive = (policy: string | null, name: string) =>
  (policy ?? "")
    .split(";")
    .map((d) => d.trim())
    .find((d) => d.startsWith(`${name} `));

describe("the web app", () => {
  it.each(["/", "/admin", "/paste/some-slug"])(
    "%s only runs script files of this origin and cannot be framed",
    async (url) => {
      const res = await t.app.request(url);
      expect(res.status).toBe(200);
      const policy = res.headers.get("content-security-policy");
      expect(directive(policy, "script-src")).toBe("script-src 'self'");
      expect(directive(policy, "object-src")).toBe("object-src 'none'");
      expect(directive(policy, "base-uri")).toBe("base-uri 'self'");
      expect(directive(policy, "frame-ancestors")).toBe("frame-ancestors 'none'");
      expect(res.headers.get("x-frame-options")).toBe("DENY");
    },
  );

  it("FRAME_ANCESTORS names who may embed it; X-Frame-Options then steps aside", async () => {
    const own = await createTestApp({ FRAME_ANCESTORS: "self https://intranet.example.com" });
    try {
      const res = await own.app.request("/admin");
      expect(directive(res.headers.get("content-security-policy"), "frame-ancestors")).toBe(
        "frame-ancestors 'self' https://intranet.example.com",
      );
      expect(res.headers.get("x-frame-options")).toBeNull();
    } finally {
      await own.close();
    }
  });
});

describe("inline PDFs", () => {
  async function pdfPolicy(app: TestApp): Promise<string | null> {
    const up = await app.request("PUT", "/api/upload-direct/report.pdf", {
      token: await app.adminToken(),
      rawBody: "%PDF-1.4\n%%EOF\n",
      headers: { "content-type": "application/pdf" },
    });
    expect(up.status).toBe(201);
    const res = await app.app.request(`/api/file-view/${up.body.data.slug}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(res.headers.get("content-disposition")).toMatch(/^inline/);
    return res.headers.get("content-security-policy");
  }

  it("load nothing, submit nothing, and only this origin may frame them (no sandbox: the viewer must run)", async () => {
    const policy = await pdfPolicy(t);
    expect(directive(policy, "default-src")).toBe("default-src 'none'");
    expect(directive(policy, "form-action")).toBe("form-action 'none'");
    expect(directive(policy, "frame-ancestors")).toBe("frame-ancestors 'self'");
    expect(policy).not.toContain("sandbox");
  });

  it("may also be framed by the origins of CORS_ORIGINS (a web app served elsewhere)", async () => {
    const own = await createTestApp({ CORS_ORIGINS: "https://app.example.com" });
    try {
      expect(directive(await pdfPolicy(own), "frame-ancestors")).toBe(
        "frame-ancestors 'self' https://app.example.com",
      );
    } finally {
      await own.close();
    }
  });
});
