import type { Browser } from "@playwright/test";
import {
  adminToken,
  createApiKey,
  createPaste,
  signInWithKeyViaForm,
  useAdminSession,
} from "./support/factories";
import { expect, failedResource, saveScreenshot, setTheme, test, unique } from "./support/fixtures";
import { fillEditor, visitor } from "./support/pastes";

const MARKDOWN = [
  "# Release checklist",
  "",
  "Notes for the **next** release.",
  "",
  "| Step | Owner |",
  "| --- | --- |",
  "| Build | Ana |",
  "| Ship | Bo |",
  "",
  "- [x] write changelog",
  "- [ ] tag the release",
  "",
  "```js",
  "const answer = 42;",
  "```",
].join("\n");

test.describe("text pastes", () => {
  test("signed out, Home asks to sign in and keeps the draft", async ({ page }) => {
    await page.goto("/");
    await expect(page.getByRole("heading", { level: 1, name: "Online clipboard" })).toBeVisible();
    const prompt = page.getByRole("region", { name: "Sign in to share" });
    await expect(prompt).toBeVisible();
    await expect(prompt.getByRole("link", { name: "Sign in" })).toHaveAttribute("href", "/admin?next=%2F");
    await expect(page.getByRole("button", { name: "Create share link" })).toBeDisabled();

    await fillEditor(page, "# Draft title\n\nsome *draft* text");
    // Markdown preview beside the editor (wide screen, side by side).
    const preview = page.getByRole("region", { name: "Markdown preview" });
    await expect(preview.getByRole("heading", { name: "Draft title" })).toBeVisible();
    await expect(page.getByText("Draft saved in this browser")).toBeVisible();

    await page.reload();
    await expect(page.getByText(/Your draft from .* was restored\./)).toBeVisible();
    await expect(page.locator(".cm-content")).toContainText("some *draft* text");
    await page.getByRole("button", { name: "Discard draft" }).click();
    await expect(page.locator(".cm-content")).not.toContainText("draft");
    await page.reload();
    await expect(page.getByText(/was restored/)).toHaveCount(0);
  });

  test("admin shares protected Markdown; a visitor unlocks it and uses up its views", async ({
    page,
    request,
    browser,
  }) => {
    // One long story across two browser contexts.
    test.setTimeout(90_000);
    const token = await adminToken(request);
    await useAdminSession(page, token, "/");
    await expect(page.getByRole("region", { name: "Sign in to share" })).toHaveCount(0);

    // Import a Markdown file, then replace its text in the editor.
    await page.getByTestId("import-file-input").setInputFiles({
      name: "notes.md",
      mimeType: "text/markdown",
      buffer: Buffer.from("# Imported\n\nfrom a file"),
    });
    await expect(page.getByText('Imported "notes.md".')).toBeVisible();
    await expect(
      page.getByRole("group", { name: "Format" }).getByRole("button", { name: "Markdown" }),
    ).toHaveAttribute("aria-pressed", "true");
    await expect(page.locator(".cm-content")).toContainText("from a file");
    await fillEditor(page, MARKDOWN);
    const preview = page.getByRole("region", { name: "Markdown preview" });
    await expect(preview.getByRole("table")).toBeVisible();

    const slug = unique("md");
    await page.getByLabel("Page title").fill("Release notes");
    await page.getByLabel("Custom link suffix").fill("bad slug!");
    await page.getByRole("button", { name: "Create share link" }).click();
    await expect(page.getByText("Use only letters, digits, hyphen (-) and underscore (_).")).toBeVisible();
    await page.getByLabel("Custom link suffix").fill(slug);
    await page.getByLabel("Password", { exact: true }).fill("open-sesame");
    await page.getByLabel("Expires after").selectOption("days");
    await page.getByLabel("Expires after: number of days").fill("2");
    await expect(page.getByText(/^Expires \w+ \d+, \d{4}/)).toBeVisible();
    await page.getByLabel("Max views").fill("2");
    await page.getByRole("button", { name: "Create share link" }).click();

    const result = page.getByRole("region", { name: "Share link created" });
    await expect(result).toBeVisible();
    const link = `${process.env.E2E_BASE_URL}/paste/${slug}`;
    await expect(result.getByRole("textbox", { name: "Share link" })).toHaveValue(link);
    await expect(result.getByRole("img", { name: `QR code for ${link}` })).toBeVisible();
    await expect(result).toContainText("Password protected");
    await expect(result).toContainText("Max views: 2");
    await expect(result).toContainText("The link stays here until your next paste.");
    await result.getByRole("button", { name: "Copy share link" }).click();
    await expect(page.getByText("Copied", { exact: true }).first()).toBeVisible();
    // The editor and draft are cleared after sharing.
    await expect(page.locator(".cm-content")).not.toContainText("Release checklist");
    await saveScreenshot(page, "home-created-light");
    await result.getByRole("button", { name: "Hide the share link" }).click();
    await expect(result).toBeHidden();

    // A visitor in a fresh context: password prompt, wrong then right password.
    const v = await visitor(browser);
    v.guard.allow(failedResource(401));
    v.guard.allow(failedResource(410));
    await v.page.goto(`/paste/${slug}`);
    await expect(v.page.getByRole("heading", { name: "Password required" })).toBeVisible();
    await v.page.getByLabel("Password", { exact: true }).fill("wrong-password");
    await v.page.getByRole("button", { name: "Open paste" }).click();
    await expect(v.page.getByRole("alert")).toHaveText("Incorrect password.");
    await v.page.getByLabel("Password", { exact: true }).fill("open-sesame");
    await v.page.getByRole("button", { name: "Open paste" }).click();

    await expect(v.page.getByRole("heading", { level: 1, name: "Release notes" })).toBeVisible();
    const body = v.page.getByTestId("markdown-body");
    await expect(body.getByRole("heading", { level: 1, name: "Release checklist" })).toBeVisible();
    await expect(body.getByRole("table")).toBeVisible();
    await expect(body.getByRole("cell", { name: "Ana" })).toBeVisible();
    const tasks = body.getByRole("checkbox");
    await expect(tasks).toHaveCount(2);
    await expect(tasks.nth(0)).toBeChecked();
    await expect(tasks.nth(1)).not.toBeChecked();
    await expect(tasks.nth(0)).toBeDisabled();
    // Code is highlighted once the highlighter has loaded.
    await expect(body.locator("code.language-js .hljs-keyword")).toHaveText("const");
    await expect(v.page.getByTestId("paste-views")).toHaveText("1 of 2 views left");
    await expect(v.page.getByTestId("paste-expiry")).toContainText("Expires");
    await expect(v.page.getByText("Password protected")).toBeVisible();

    // Raw link carries the access token and opens without the password.
    const raw = v.page.getByRole("link", { name: "Raw" });
    const rawHref = await raw.getAttribute("href");
    expect(rawHref).toMatch(new RegExp(`/api/raw/${slug}\\?token=`));
    const rawRes = await v.page.request.get(rawHref!);
    expect(rawRes.status()).toBe(200);
    expect(await rawRes.text()).toBe(MARKDOWN);

    // Plain text mode and download as .md.
    await v.page.getByRole("group", { name: "Format" }).getByRole("button", { name: "Plain text" }).click();
    await expect(v.page.getByTestId("plain-text")).toContainText("| Step | Owner |");
    const download = v.page.waitForEvent("download");
    await v.page.getByRole("button", { name: "Download .txt" }).click();
    expect((await download).suggestedFilename()).toBe(`${slug}.txt`);
    await v.page.getByRole("group", { name: "Format" }).getByRole("button", { name: "Markdown" }).click();
    const mdDownload = v.page.waitForEvent("download");
    await v.page.getByRole("button", { name: "Download .md" }).click();
    expect((await mdDownload).suggestedFilename()).toBe(`${slug}.md`);

    await v.page.getByRole("button", { name: "QR code" }).click();
    const qr = v.page.getByRole("dialog", { name: "QR code" });
    await expect(qr.getByRole("img", { name: `QR code for ${link}` })).toBeVisible();
    await v.page.keyboard.press("Escape");
    await saveScreenshot(v.page, "paste-view-light");

    // Second view: the last one.
    await v.page.reload();
    await v.page.getByLabel("Password", { exact: true }).fill("open-sesame");
    await v.page.getByRole("button", { name: "Open paste" }).click();
    await expect(v.page.getByTestId("paste-views")).toHaveText("0 of 2 views left");
    await expect(v.page.getByText(/This was the last allowed view/)).toBeVisible();

    // Third: the limit page.
    await v.page.reload();
    await expect(v.page.getByRole("heading", { name: "View limit reached" })).toBeVisible();
    await saveScreenshot(v.page, "paste-view-limit-light");
    expect(v.guard.unexpected(), "visitor console errors").toEqual([]);
    await v.context.close();

    // The admin panel shows the used-up paste.
    await page.goto("/admin/text-management");
    const row = page.getByRole("row", { name: new RegExp(slug) });
    await expect(row).toContainText("2 / 2");
    await expect(row).toContainText("Views used up");
    await expect(row.getByRole("img", { name: "Password protected" })).toBeVisible();
    await page.getByLabel("Status").selectOption("active");
    await expect(row).toHaveCount(0);
    await page.getByLabel("Status").selectOption("expired");
    await expect(row).toBeVisible();

    // Clear expired removes it.
    await page.getByRole("button", { name: "Clear expired" }).click();
    const confirm = page.getByRole("alertdialog", { name: "Clear expired pastes?" });
    await expect(confirm).toContainText("of all users");
    await confirm.getByRole("button", { name: "Clear expired" }).click();
    await expect(page.getByText(/^Expired pastes removed: [1-9]\d*$/)).toBeVisible();
    await expect(row).toHaveCount(0);
    const gone = await request.get(`/api/paste/${slug}`);
    expect(gone.status()).toBe(404);
  });

  test("an API key with text permission creates a paste from Home", async ({ page, request }) => {
    const token = await adminToken(request);
    const keyName = unique("text-key");
    const { key } = await createApiKey(request, token, { name: keyName, permissions: 1 });

    await signInWithKeyViaForm(page, key);
    await expect(page.getByRole("heading", { name: "User panel" })).toBeVisible();

    await page.goto("/");
    await expect(page.getByRole("region", { name: "Sign in to share" })).toHaveCount(0);
    await page.getByRole("group", { name: "Format" }).getByRole("button", { name: "Plain text" }).click();
    await fillEditor(page, "plain note from a key\nsecond line");
    await page.getByLabel("Page title").fill(keyName);
    await page.getByRole("button", { name: "Create share link" }).click();
    const result = page.getByRole("region", { name: "Share link created" });
    const link = await result.getByRole("textbox", { name: "Share link" }).inputValue();
    const slug = link.split("/paste/")[1]!;
    expect(slug).toMatch(/^[A-Za-z0-9]{10}$/);

    // Listed as the key's own paste.
    const list = await request.get("/api/pastes", { headers: { Authorization: `ApiKey ${key}` } });
    const rows = (await list.json()).data as { slug: string; created_by: string; key_name: string }[];
    expect(rows.map((r) => r.slug)).toEqual([slug]);
    expect(rows[0]!.key_name).toBe(keyName);

    await page.goto("/admin/text-management");
    await expect(page.getByRole("heading", { level: 2, name: "Text management" })).toBeVisible();
    await expect(page.getByText("The text shares created with your API key.")).toBeVisible();
    const row = page.getByRole("row", { name: new RegExp(slug) });
    await expect(row).toContainText(keyName);
    await expect(row).toContainText("API key");

    // The owner reads it without using a view.
    await page.goto(`/paste/${slug}`);
    await expect(page.getByTestId("plain-text")).toContainText("second line");
    await expect(page.getByTestId("paste-views")).toHaveText("Unlimited views");
  });

  test("admin searches, previews, edits and batch-deletes pastes", async ({
    page,
    request,
    consoleGuard,
  }) => {
    consoleGuard.allow(failedResource(409)); // the link another paste holds
    const token = await adminToken(request);
    const auth = `Bearer ${token}`;
    const tag = unique("batch");
    const a = await createPaste(request, auth, {
      content: `# Alpha ${tag}\n\nfirst`,
      remark: `${tag} alpha`,
    });
    const b = await createPaste(request, auth, {
      content: `beta ${tag}`,
      remark: `${tag} beta`,
      maxViews: 3,
    });
    const c = await createPaste(request, auth, {
      content: `gamma ${tag}`,
      remark: `${tag} gamma`,
      password: "pw",
    });

    await useAdminSession(page, token, "/admin/text-management");
    await expect(page.getByRole("heading", { level: 2, name: "Text management" })).toBeVisible();
    await page.getByLabel("Search pastes").fill(tag);
    const rows = page.getByRole("table").getByRole("row");
    await expect(rows).toHaveCount(4); // header + 3
    await expect(page.getByRole("row", { name: new RegExp(b.slug) })).toContainText("0 / 3");
    await expect(
      page.getByRole("row", { name: new RegExp(c.slug) }).getByRole("img", { name: "Password protected" }),
    ).toBeVisible();

    // Preview renders the Markdown without counting a view.
    await page.getByRole("button", { name: `Preview ${a.slug}` }).click();
    const preview = page.getByRole("dialog", { name: `Paste ${a.slug}` });
    await expect(preview.getByRole("heading", { name: `Alpha ${tag}` })).toBeVisible();
    await page.keyboard.press("Escape");

    // Edit: new text, remark, link suffix and view limit.
    await page.getByRole("button", { name: `Edit ${a.slug}` }).click();
    const edit = page.getByRole("dialog", { name: `Edit paste ${a.slug}` });
    await expect(edit.getByLabel("Page title")).toHaveValue(`${tag} alpha`);
    await fillEditor(page, `# Alpha edited ${tag}`);
    await edit.getByLabel("Page title").fill(`${tag} alpha edited`);
    const newSlug = `${a.slug}-v2`;
    await edit.getByLabel("Custom link suffix").fill("admin");
    await edit.getByRole("button", { name: "Save" }).click();
    await expect(edit.getByText("This word is reserved; choose another link suffix.")).toBeVisible();
    await edit.getByLabel("Custom link suffix").fill(newSlug);
    await edit.getByLabel("Max views").fill("5");
    await edit.getByRole("button", { name: "Save" }).click();
    await expect(edit).toBeHidden();
    await expect(page.getByText("Paste updated.")).toBeVisible();
    const edited = page.getByRole("row", { name: new RegExp(newSlug) });
    await expect(edited).toContainText(`${tag} alpha edited`);
    await expect(edited).toContainText("0 / 5");
    const detail = await request.get(`/api/pastes/${a.id}`, { headers: { Authorization: auth } });
    expect((await detail.json()).data).toMatchObject({
      slug: newSlug,
      content: `# Alpha edited ${tag}`,
      max_views: 5,
    });

    // A link another paste holds is refused on its field; the next paste opened
    // shows its own values, not what was typed for the last one.
    await page.getByRole("button", { name: `Edit ${b.slug}` }).click();
    const editB = page.getByRole("dialog", { name: `Edit paste ${b.slug}` });
    await editB.getByLabel("Page title").fill(`${tag} typed, never saved`);
    await editB.getByLabel("Custom link suffix").fill(c.slug);
    await editB.getByRole("button", { name: "Save" }).click();
    await expect(editB.getByText("Link suffix already taken, try another.")).toBeVisible();
    await editB.getByRole("button", { name: "Cancel" }).click();
    await expect(editB).toBeHidden();
    await page.getByRole("button", { name: `Edit ${c.slug}` }).click();
    const editC = page.getByRole("dialog", { name: `Edit paste ${c.slug}` });
    await expect(editC.getByLabel("Page title")).toHaveValue(`${tag} gamma`);
    await expect(editC.getByLabel("Custom link suffix")).toHaveValue(c.slug);
    await expect(editC.getByText("Link suffix already taken, try another.")).toBeHidden();
    await editC.getByRole("button", { name: "Cancel" }).click();
    await page.getByRole("button", { name: `Edit ${b.slug}` }).click();
    await expect(editB.getByLabel("Page title")).toHaveValue(`${tag} beta`);
    await editB.getByRole("button", { name: "Cancel" }).click();

    // Batch delete two.
    await page.getByRole("checkbox", { name: `Select ${b.slug}` }).click();
    await page.getByRole("checkbox", { name: `Select ${c.slug}` }).click();
    await expect(page.getByText("2 selected")).toBeVisible();
    await page.getByRole("button", { name: "Delete selected (2)" }).click();
    const confirm = page.getByRole("alertdialog", { name: "Delete 2 pastes?" });
    await expect(confirm).toContainText(b.slug);
    await confirm.getByRole("button", { name: "Delete" }).click();
    await expect(confirm).toBeHidden();
    await expect(page.getByText("Pastes deleted: 2")).toBeVisible();
    await expect(rows).toHaveCount(2);
    for (const gone of [b, c]) {
      const res = await request.get(`/api/pastes/${gone.id}`, { headers: { Authorization: auth } });
      expect(res.status()).toBe(404);
    }
    await setTheme(page, "dark");
    await page.getByLabel("Search pastes").fill(tag);
    await expect(rows).toHaveCount(2);
    await saveScreenshot(page, "text-management-dark");
  });

  test("the created link stays on Home until the next paste replaces it", async ({ page, request }) => {
    await page.clock.install();
    await useAdminSession(page, await adminToken(request), "/");
    const result = page.getByRole("region", { name: "Share link created" });
    const share = async (text: string) => {
      await fillEditor(page, text);
      await page.getByRole("button", { name: "Create share link" }).click();
      await expect(result).toBeVisible();
      return result.getByRole("textbox", { name: "Share link" }).inputValue();
    };
    const first = await share("first note");
    // Five minutes on, the link is still there to copy.
    await page.clock.runFor(5 * 60_000);
    await expect(result.getByRole("textbox", { name: "Share link" })).toHaveValue(first);
    const second = await share("second note");
    expect(second).not.toBe(first);
    await expect(result).toHaveCount(1);
  });

  test("Home's editor colours Markdown and the code in its fences", async ({ page, request }) => {
    await useAdminSession(page, await adminToken(request), "/");
    await fillEditor(page, "# Title\n\nSome *text*.\n\n```js\nconst answer = 42;\n```\n");
    await page.getByRole("group", { name: "Format" }).getByRole("button", { name: "Markdown" }).click();
    const line = (text: string) => page.locator(".cm-content .cm-line", { hasText: text });
    const plainColor = await line("Some").evaluate((el) => getComputedStyle(el).color);
    // The heading is bold; the fence's keyword takes a colour once the JavaScript parser has loaded.
    await expect(line("Title").locator("span").first()).toHaveCSS("font-weight", "700");
    await expect
      .poll(() =>
        line("answer")
          .getByText("const", { exact: true })
          .evaluate((el) => getComputedStyle(el).color),
      )
      .not.toBe(plainColor);
  });

  /** A visitor's page that notes the scripts it loads: whether the highlighter's chunk came. */
  async function watchedVisitor(browser: Browser) {
    const v = await visitor(browser);
    const scripts: string[] = [];
    v.page.on("request", (r) => {
      if (r.resourceType() === "script") scripts.push(new URL(r.url()).pathname);
    });
    return { ...v, loadedHighlighter: () => scripts.some((path) => /\/assets\/highlight-/.test(path)) };
  }

  test("a plain-text paste of code is coloured", async ({ browser, request }) => {
    const auth = `Bearer ${await adminToken(request)}`;
    const code = await createPaste(request, auth, {
      content: [
        'import { readFile } from "node:fs/promises";',
        "",
        "export async function total(path) {",
        '  const items = JSON.parse(await readFile(path, "utf8"));',
        "  return items.reduce((sum, item) => sum + item.price, 0);",
        "}",
      ].join("\n"),
    });
    const v = await watchedVisitor(browser);
    await v.page.goto(`/paste/${code.slug}`);
    await expect(v.page.getByTestId("plain-text").locator(".hljs-keyword").first()).toHaveText("import");
    expect(v.loadedHighlighter()).toBe(true);
    expect(v.guard.unexpected(), "visitor console errors").toEqual([]);
    await v.context.close();
  });

  test("a plain-text paste of prose is shown without loading the highlighter", async ({
    browser,
    request,
  }) => {
    const auth = `Bearer ${await adminToken(request)}`;
    const prose = await createPaste(request, auth, {
      content: "Meeting notes\nRoom 4, 10:00. Bring the budget figures and the new floor plan.",
    });
    const v = await watchedVisitor(browser);
    await v.page.goto(`/paste/${prose.slug}`);
    await expect(v.page.getByTestId("plain-text")).toContainText("Room 4, 10:00.");
    await v.page.waitForLoadState("networkidle");
    expect(v.loadedHighlighter()).toBe(false);
    await expect(v.page.getByTestId("plain-text").locator(".hljs")).toHaveCount(0);
    expect(v.guard.unexpected(), "visitor console errors").toEqual([]);
    await v.context.close();
  });

  test("link previews and scanners do not use up views", async ({ page, request }) => {
    const token = await adminToken(request);
    const auth = { Authorization: `Bearer ${token}` };
    const { id, slug } = await createPaste(request, `Bearer ${token}`, {
      content: "# Once only\n\nsecret text",
      maxViews: 1,
    });
    // An unfurler or mail scanner loads the page: the HTML has no paste content, and
    // nothing is fetched because no script runs.
    for (const ua of [
      "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)",
      "facebookexternalhit/1.1",
      "Mozilla/5.0 (compatible; Discordbot/2.0)",
      "curl/8.5.0",
    ]) {
      const res = await request.get(`/paste/${slug}`, { headers: { "User-Agent": ua } });
      expect(res.status()).toBe(200);
      expect(await res.text()).not.toContain("secret text");
    }
    // A previewer that does call the API gets metadata only.
    const bot = await request.get(`/api/paste/${slug}`, {
      headers: { "User-Agent": "TelegramBot (like TwitterBot)" },
    });
    expect((await bot.json()).data.content).toBeUndefined();
    expect((await request.head(`/api/paste/${slug}`)).status()).toBe(200);
    const before = await request.get(`/api/pastes/${id}`, { headers: auth });
    expect((await before.json()).data.views).toBe(0);

    // The one real visitor still gets it.
    await page.goto(`/paste/${slug}`);
    await expect(page.getByTestId("markdown-body").getByRole("heading", { name: "Once only" })).toBeVisible();
    await expect(page.getByTestId("paste-views")).toHaveText("0 of 1 views left");
    await expect(page.getByText(/This was the last allowed view/)).toBeVisible();
  });

  test("Home and the paste view in Chinese", async ({ page, request, consoleGuard }) => {
    consoleGuard.allow(failedResource(404));
    const token = await adminToken(request);
    const paste = await createPaste(request, `Bearer ${token}`, {
      content: "第一行\n第二行",
      remark: "中文备注",
      maxViews: 5,
    });
    await page.goto("/");
    await page.getByRole("button", { name: "Switch language to 中文" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "在线剪贴板" })).toBeVisible();
    await expect(page.getByRole("region", { name: "登录后才能分享" })).toBeVisible();
    await expect(page.getByRole("button", { name: "创建分享链接" })).toBeDisabled();
    await expect(page.getByLabel("自定义链接后缀")).toBeVisible();
    await expect(page.getByLabel("过期时间")).toContainText("永不过期");

    await page.goto(`/paste/${paste.slug}`);
    await expect(page.getByRole("heading", { level: 1, name: "中文备注" })).toBeVisible();
    await expect(page.getByTestId("paste-views")).toHaveText("剩余 4 / 5 次查看");
    await expect(page.getByRole("button", { name: "复制文本" })).toBeVisible();
    await expect(page.getByRole("button", { name: "下载 .txt" })).toBeVisible();
    // The tab shows the paste's own title, like its heading.
    await expect(page).toHaveTitle("中文备注 - ClipShare");

    await page.goto("/paste/no-such-paste-here");
    await expect(page.getByRole("heading", { name: "分享不存在" })).toBeVisible();
  });
});
