/**
 * Small things a new user meets in the first minutes, each pinned by what the
 * person sees: nothing cut off that names them or the list they page through.
 */
import { apiLogin, expect, test, useAdminSession } from "./support/fixtures";

const notClipped = (el: Element) => el.scrollWidth <= el.clientWidth + 1;

test.describe("first minutes", () => {
  for (const width of [1366, 820, 390]) {
    test(`"Signed in as Administrator" is shown whole at ${width} px`, async ({ page, request }) => {
      await page.setViewportSize({ width, height: 800 });
      await useAdminSession(page, await apiLogin(request), "/admin");
      const line = page.getByText("Signed in as Administrator");
      await expect(line).toBeVisible();
      expect(await line.evaluate(notClipped)).toBe(true);
    });
  }

  test("the key dialog says what Role and Guest key do", async ({ page, request }) => {
    await useAdminSession(page, await apiLogin(request), "/admin/key-management");
    await page.getByRole("button", { name: "Create key" }).click();
    const dialog = page.getByRole("dialog", { name: "Create API key" });
    await expect(
      dialog.getByText("What the key may do is set by its permissions and base path.", { exact: false }),
    ).toBeVisible();
    await expect(dialog.getByText("it grants and removes no permission", { exact: false })).toBeVisible();
  });
});
