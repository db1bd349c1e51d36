import { join } from "node:path";
import type { Browser, Page, Request } from "@playwright/test";
import Database from "better-sqlite3";
import { startTestServer } from "./global-setup";
import { apiLogin, test as base, ConsoleGuard, expect, unique, useAdminSession } from "./support/fixtures";
import { fillEditor } from "./support/pastes";

/**
 * End-to-end encrypted pastes against a server of its own, so the test can read
 * what the server stored: every request the browsers send is recorded, and
 * neither the plaintext marker nor the key may appear in any URL or body; the
 * database row holds ciphertext only.
 */
const test = base.extend<{ token: string }, { server: { baseUrl: string; dataDir: string } }>({
  server: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern
    async ({}, use) => {
      const server = await startTestServer({ logName: "e2e-encryption-server.log" });
      await use({ baseUrl: server.baseUrl, dataDir: server.dataDir });
      await server.stop();
    },
    { scope: "worker" },
  ],
  baseURL: async ({ server }, use) => use(server.baseUrl),
  token: async ({ request }, use) => use(await apiLogin(request)),
});

const MARKER = "PLAINTEXT-MARKER-7f3a";

/** Everything a page sends: URL (path, query) and body of each request. */
function recordRequests(page: Page): Array<{ url: string; body: string }> {
  const seen: Array<{ url: string; body: string }> = [];
  page.on("request", (request: Request) => {
    seen.push({ url: request.url(), body: request.postDataBuffer()?.toString("latin1") ?? "" });
  });
  return seen;
}

function expectNothingLeaked(sent: Array<{ url: string; body: string }>, secrets: string[]) {
  expect(sent.length).toBeGreaterThan(0);
  for (const request of sent) {
    for (const secret of secrets) {
      expect(request.url, `request URL leaks ${secret}`).not.toContain(secret);
      expect(request.body, `body of ${request.url} leaks ${secret}`).not.toContain(secret);
    }
  }
}

async function freshVisitor(browser: Browser, baseURL: string) {
  const context = await browser.newContext({
    baseURL,
    locale: "en-US",
    viewport: { width: 1280, height: 800 },
  });
  const page = await context.newPage();
  const guard = new ConsoleGuard();
  guard.watch(page);
  return { context, page, guard };
}

function storedPaste(
  dataDir: string,
  slug: string,
): { content: string; encrypted: number; password_hash: string | null } {
  const db = new Database(join(dataDir, "clipshare.db"), { readonly: true, fileMustExist: true });
  try {
    return db.prepare("SELECT content, encrypted, password_hash FROM pastes WHERE slug = ?").get(slug) as {
      content: string;
      encrypted: number;
      password_hash: string | null;
    };
  } finally {
    db.close();
  }
}

async function createEncryptedPaste(page: Page, text: string, slug: string, password?: string) {
  await fillEditor(page, text);
  await page.getByLabel("Custom link suffix").fill(slug);
  if (password) await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("checkbox", { name: "Encrypt end to end" }).check();
  await page.getByRole("button", { name: "Create share link" }).click();
  const result = page.getByRole("region", { name: "Share link created" });
  await expect(result.getByTestId("e2e-link-note")).toBeVisible();
  await expect(result).toContainText("End-to-end encrypted");
  const link = await result.getByRole("textbox", { name: "Share link" }).inputValue();
  expect(link).toMatch(new RegExp(`/paste/${slug}#[kp]\\.[A-Za-z0-9_-]+$`));
  return { link, fragment: link.slice(link.indexOf("#") + 1) };
}

test.describe("end-to-end encrypted pastes", () => {
  test("without a password: the link opens it, the server never sees text or key", async ({
    page,
    browser,
    token,
    server,
  }) => {
    const sent = recordRequests(page);
    await useAdminSession(page, token, "/");
    const slug = unique("e2e");
    const { link, fragment } = await createEncryptedPaste(page, `# Sealed ${MARKER}\n\nsecret *body*`, slug);
    expect(fragment.startsWith("k.")).toBe(true);

    const row = storedPaste(server.dataDir, slug);
    expect(row.encrypted).toBe(1);
    expect(row.password_hash).toBeNull();
    expect(row.content).not.toContain(MARKER);
    expect(row.content).not.toContain("Sealed");

    const v = await freshVisitor(browser, server.baseUrl);
    const visitorSent = recordRequests(v.page);
    await v.page.goto(link);
    const body = v.page.getByTestId("markdown-body");
    // Markdown rendered in the browser after decrypting.
    await expect(body.getByRole("heading", { level: 1, name: `Sealed ${MARKER}` })).toBeVisible();
    await expect(v.page.getByTestId("e2e-notice")).toContainText(
      "raw link, search and server-side features are off",
    );
    expectNothingLeaked([...sent, ...visitorSent], [MARKER, fragment.slice(2)]);

    // The server has no raw form of it, and says why in the JSON envelope.
    const raw = await v.page.request.get(`/api/raw/${slug}`);
    expect(raw.status()).toBe(409);
    expect(await raw.json()).toMatchObject({ success: false, error: "encrypted_paste" });

    // The link without its key: a clear message, no content.
    await v.page.goto(`/paste/${slug}`);
    await expect(v.page.getByTestId("e2e-failure")).toContainText("the link has no key");
    expect(v.guard.unexpected()).toEqual([]);
    await v.context.close();
  });

  test("with a password: the link alone is not enough, a wrong password is refused in the browser", async ({
    page,
    browser,
    token,
    server,
  }) => {
    const sent = recordRequests(page);
    await useAdminSession(page, token, "/");
    const slug = unique("e2epw");
    const password = "correct horse battery";
    const { link, fragment } = await createEncryptedPaste(page, `plain words ${MARKER}`, slug, password);
    expect(fragment.startsWith("p.")).toBe(true);
    expect(storedPaste(server.dataDir, slug).password_hash).toBeNull();

    const v = await freshVisitor(browser, server.baseUrl);
    const visitorSent = recordRequests(v.page);
    await v.page.goto(link);
    await expect(v.page.getByRole("heading", { name: "Password needed to decrypt" })).toBeVisible();
    await v.page.getByLabel("Password", { exact: true }).fill("wrong password");
    await v.page.getByRole("button", { name: "Decrypt" }).click();
    await expect(v.page.getByText("Wrong password")).toBeVisible({ timeout: 20_000 });
    await v.page.getByLabel("Password", { exact: true }).fill(password);
    await v.page.getByRole("button", { name: "Decrypt" }).click();
    await expect(v.page.getByText(`plain words ${MARKER}`)).toBeVisible({ timeout: 20_000 });
    expectNothingLeaked([...sent, ...visitorSent], [MARKER, password, fragment.slice(2)]);
    expect(v.guard.unexpected()).toEqual([]);
    await v.context.close();
  });
});
