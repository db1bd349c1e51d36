import { adminToken, createPaste, useAdminSession } from "./support/factories";
import { blockedInlineHandler, expect, failedResource, test } from "./support/fixtures";
import { fillEditor } from "./support/pastes";

/** Every vector sets window.__xss (or opens a dialog) if it ever runs. */
const PAYLOAD = [
  "# Harmless heading",
  "",
  "<script>window.__xss = 'script'; alert('script')</script>",
  '<img src="x" onerror="window.__xss = \'img-onerror\'; alert(1)">',
  '<img src="data:image/svg+xml,%3Csvg onload=alert(1)%3E" alt="svg data">',
  "[markdown js link](javascript:window.__xss='md-link')",
  "<a href=\"javascript:window.__xss='html-link'\">html js link</a>",
  "<a href=\"JaVaScRiPt&colon;window.__xss='encoded-link'\">encoded js link</a>",
  "<a href=\"java&#x09;script:window.__xss='tab-link'\">tab js link</a>",
  '<div id="hover-target" onmouseover="window.__xss=\'onmouseover\'" onclick="window.__xss=\'onclick\'">hover and click me</div>',
  '<svg onload="window.__xss=\'svg\'"><circle r="5"></circle></svg>',
  "<iframe src=\"javascript:window.__xss='iframe'\"></iframe>",
  "<iframe srcdoc=\"<script>parent.__xss='srcdoc'</script>\"></iframe>",
  "<details open ontoggle=\"window.__xss='ontoggle'\"><summary>details</summary>inside</details>",
  "<input autofocus onfocus=\"window.__xss='onfocus'\">",
  '<form action="javascript:window.__xss=\'form\'"><button id="form-button">submit</button></form>',
  "<object data=\"javascript:window.__xss='object'\"></object>",
  "<embed src=\"javascript:window.__xss='embed'\">",
  "<style>body { display: none !important; }</style>",
  '<p style="position:fixed;inset:0;background:red">overlay</p>',
  "<math><mtext><table><mglyph><style><img src=x onerror=\"window.__xss='mxss'\"></style></mglyph></table></mtext></math>",
  "<base href=\"javascript:window.__xss='base'//\">",
  '<meta http-equiv="refresh" content="0;url=javascript:window.__xss=\'meta\'">',
  "",
  "[a safe link](https://example.com/page)",
].join("\n");

async function assertInert(page: import("@playwright/test").Page, dialogs: string[]) {
  const url = page.url();
  const body = page.getByTestId("markdown-body").first();
  await expect(body.getByRole("heading", { name: "Harmless heading" })).toBeVisible();
  // Poke everything that could fire.
  await body.getByText("hover and click me").hover();
  await body.getByText("hover and click me").click();
  for (const name of ["markdown js link", "html js link", "encoded js link", "tab js link"]) {
    await body.getByText(name).click();
  }
  await page.waitForTimeout(300);
  expect(await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss)).toBeUndefined();
  expect(dialogs).toEqual([]);
  // Nothing executable reached the DOM.
  expect(
    await body.locator("script, iframe, object, embed, svg, math, style, form, base, meta").count(),
  ).toBe(0);
  expect(
    await body
      .locator("[onerror], [onload], [onclick], [onmouseover], [onfocus], [ontoggle], [style]")
      .count(),
  ).toBe(0);
  const hrefs = await body
    .locator("a[href]")
    .evaluateAll((as) => as.map((a) => a.getAttribute("href") ?? ""));
  expect(hrefs.filter((h) => /script:/i.test(h.replace(/\s/g, "")))).toEqual([]);
  const srcs = await body.locator("img").evaluateAll((imgs) => imgs.map((i) => i.getAttribute("src") ?? ""));
  expect(srcs.filter((s) => s.startsWith("data:image/svg"))).toEqual([]);
  // The page itself is intact and the safe link is kept, opening in a new tab.
  await expect(page.locator("body")).toBeVisible();
  const safe = body.getByRole("link", { name: "a safe link" });
  await expect(safe).toHaveAttribute("href", "https://example.com/page");
  await expect(safe).toHaveAttribute("target", "_blank");
  await expect(safe).toHaveAttribute("rel", /noopener/);
  // No link navigated the page away.
  expect(page.url()).toBe(url);
}

test.describe("untrusted Markdown renders inert", () => {
  test("on the paste page", async ({ page, request, consoleGuard }) => {
    consoleGuard.allow(failedResource(404));
    // The app's CSP refuses the payload's inline handlers while the sanitizer parses them.
    consoleGuard.allow(blockedInlineHandler);
    const token = await adminToken(request);
    const { slug } = await createPaste(request, `Bearer ${token}`, { content: PAYLOAD });
    const dialogs: string[] = [];
    page.on("dialog", (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await page.goto(`/paste/${slug}`);
    await expect(
      page.getByRole("group", { name: "Format" }).getByRole("button", { name: "Markdown" }),
    ).toHaveAttribute("aria-pressed", "true");
    await assertInert(page, dialogs);
  });

  test("in the Home preview and the admin preview", async ({ page, request, consoleGuard }) => {
    consoleGuard.allow(failedResource(404));
    // The app's CSP refuses the payload's inline handlers while the sanitizer parses them.
    consoleGuard.allow(blockedInlineHandler);
    const token = await adminToken(request);
    const { slug } = await createPaste(request, `Bearer ${token}`, { content: PAYLOAD, remark: "xss" });
    const dialogs: string[] = [];
    page.on("dialog", (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await page.goto("/");
    await fillEditor(page, PAYLOAD);
    await assertInert(page, dialogs);

    await useAdminSession(page, token, "/admin/text-management");
    await page.getByRole("button", { name: `Preview ${slug}` }).click();
    await expect(page.getByRole("dialog", { name: `Paste ${slug}` })).toBeVisible();
    await assertInert(page, dialogs);
  });
});
