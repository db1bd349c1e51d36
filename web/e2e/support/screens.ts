import { Permission } from "@clipshare/shared";
import {
  type APIRequestContext,
  type Browser,
  type BrowserContext,
  expect,
  type Page,
} from "@playwright/test";
import { ADMIN_MODULE_IDS } from "../../src/features/admin/modules/module-ids";
import {
  adminToken,
  createApiKey,
  createFileRequest,
  createFileShare,
  createInvitation,
  createLocalMount,
  createPaste,
  putFile,
} from "./factories";
import { ADMIN_USERNAME, unique } from "./fixtures";

/**
 * Every screen of the app, for the checks that walk all of them (axe, the
 * Chinese-text check) and for `npm run screenshots`. Each screen is opened as
 * one principal (visitor, administrator or key holder) and is ready once its
 * main heading shows.
 */

export type Principal = "visitor" | "admin" | "key";

export interface Screen {
  name: string;
  as: Principal;
  path: string;
  /** Extra steps after the page loaded (open a prompt, fill a form). */
  prepare?: (page: Page) => Promise<void>;
}

/** What the sample data is called: names visible on screens, allowed in any language. */
export interface SampleData {
  pasteSlug: string;
  protectedPasteSlug: string;
  fileSlug: string;
  protectedFileSlug: string;
  /** A collection of the sample file and the sample mount's folder, and one behind a password. */
  collectionSlug: string;
  protectedCollectionSlug: string;
  key: string;
  /** The sample mount, holding one file. */
  mountPath: string;
  /** The sign-up page of an open invitation. */
  invitePath: string;
  names: string[];
}

export const SAMPLE_PASSWORD = "sample-pass-1";

/** Creates a little of everything once per server: pastes, files, a mount with a file, a key. */
export async function seedSampleData(request: APIRequestContext): Promise<SampleData> {
  const token = await adminToken(request);
  const auth = { Authorization: `Bearer ${token}` };
  const tag = unique("tour").replace(/[^a-z0-9-]/gi, "");
  const paste = await createPaste(request, `Bearer ${token}`, {
    content: "# ClipShare\n\n- 1\n- 2\n",
    remark: tag,
    max_views: 50,
  });
  const locked = await createPaste(request, `Bearer ${token}`, {
    content: "123456",
    password: SAMPLE_PASSWORD,
  });
  const file = await createFileShare(request, token, `${tag}.txt`, "12345\n", { max_views: 50 });
  const lockedFile = await createFileShare(request, token, `${tag}-2.txt`, "67890\n", {
    password: SAMPLE_PASSWORD,
  });
  // A storage of its own, so the default one stays free of mounts for the specs that delete it.
  const mountPath = `/${tag}`;
  await createLocalMount(request, token, mountPath, { storageName: tag });
  await putFile(request, token, `${mountPath}/${tag}.txt`, "2026\n");
  const collection = async (extra: Record<string, unknown>) => {
    const res = await request.post("/api/collections", {
      headers: auth,
      data: { title: tag, items: [{ file_id: file.id }, { path: mountPath }], ...extra },
    });
    expect(res.status(), await res.text()).toBe(201);
    return (await res.json()).data.slug as string;
  };
  await createFileRequest(request, token, { title: tag, max_files: 10 });
  const collectionSlug = await collection({});
  const protectedCollectionSlug = await collection({ password: SAMPLE_PASSWORD });
  const key = await createApiKey(request, token, {
    name: tag,
    permissions: Permission.TEXT | Permission.FILE_SHARE | Permission.MOUNT_VIEW,
  });
  const invitePath = await createInvitation(request, token, { role: "user", permissions: Permission.TEXT });
  return {
    invitePath,
    pasteSlug: paste.slug,
    protectedPasteSlug: locked.slug,
    fileSlug: file.slug,
    protectedFileSlug: lockedFile.slug,
    collectionSlug,
    protectedCollectionSlug,
    key: key.key,
    mountPath,
    // The administrator's name shows as the owner of the sample shares.
    names: [
      tag,
      paste.slug,
      locked.slug,
      file.slug,
      lockedFile.slug,
      collectionSlug,
      protectedCollectionSlug,
      key.key,
      ADMIN_USERNAME,
    ],
  };
}

const ADMIN_MODULES = ADMIN_MODULE_IDS;
const KEY_MODULES = ["text-management", "file-management", "mount-management"] as const;

/** A few lines of Markdown in Home's editor (digits and marks only: fine in either language). */
async function typeInEditor(page: Page): Promise<void> {
  const editor = page.locator(".cm-content");
  await editor.click();
  await page.keyboard.insertText("# 2026\n\n- 1\n- 2\n\n```\n42\n```\n");
}

export function allScreens(data: SampleData): Screen[] {
  return [
    { name: "home", as: "visitor", path: "/" },
    { name: "home-signed-in", as: "admin", path: "/" },
    // The editor with text in it: line numbers and highlighted tokens show only then.
    { name: "home-editor-text", as: "admin", path: "/", prepare: typeInEditor },
    { name: "paste", as: "visitor", path: `/paste/${data.pasteSlug}` },
    { name: "paste-password", as: "visitor", path: `/paste/${data.protectedPasteSlug}` },
    { name: "paste-missing", as: "visitor", path: "/paste/no-such-paste" },
    { name: "file", as: "visitor", path: `/file/${data.fileSlug}` },
    { name: "file-password", as: "visitor", path: `/file/${data.protectedFileSlug}` },
    { name: "file-missing", as: "visitor", path: "/file/no-such-file" },
    { name: "collection", as: "visitor", path: `/c/${data.collectionSlug}` },
    { name: "collection-password", as: "visitor", path: `/c/${data.protectedCollectionSlug}` },
    { name: "collection-missing", as: "visitor", path: "/c/no-such-collection" },
    { name: "upload", as: "admin", path: "/upload" },
    { name: "upload-signed-out", as: "visitor", path: "/upload" },
    { name: "sign-in", as: "visitor", path: "/admin" },
    { name: "invite", as: "visitor", path: data.invitePath },
    { name: "sso-refused", as: "visitor", path: "/sso?error=sso_unknown_user" },
    ...ADMIN_MODULES.map((id) => ({ name: `admin-${id}`, as: "admin" as const, path: `/admin/${id}` })),
    ...KEY_MODULES.map((id) => ({ name: `key-${id}`, as: "key" as const, path: `/admin/${id}` })),
    { name: "explorer", as: "admin", path: "/mount-explorer" },
    { name: "explorer-key", as: "key", path: "/mount-explorer" },
    { name: "api-docs", as: "visitor", path: "/api-docs" },
    { name: "explorer-folder", as: "admin", path: `/mount-explorer${data.mountPath}` },
    { name: "explorer-folder-key", as: "key", path: `/mount-explorer${data.mountPath}` },
    // A module the sample key may not open: the notice naming what it lacks.
    { name: "key-locked-module", as: "key", path: "/admin/key-management" },
  ];
}

export interface TourOptions {
  language: "en" | "zh";
  theme: "light" | "dark";
  viewport?: { width: number; height: number };
  /** Another server than the suite's (a fresh install of a spec's own). */
  baseURL?: string;
}

/** A browser context signed in as `as`, with the language and theme set before the app starts. */
export async function openAs(
  browser: Browser,
  request: APIRequestContext,
  as: Principal,
  data: SampleData,
  options: TourOptions,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    baseURL: options.baseURL ?? process.env.E2E_BASE_URL,
    locale: options.language === "zh" ? "zh-CN" : "en-US",
    viewport: options.viewport ?? { width: 1366, height: 900 },
  });
  const token = as === "admin" ? await adminToken(request) : null;
  await context.addInitScript(
    ({ language, theme, token }) => {
      localStorage.setItem("language", language);
      localStorage.setItem("themeMode", theme);
      if (token) localStorage.setItem("admin_token", token);
    },
    { language: options.language, theme: options.theme, token },
  );
  const page = await context.newPage();
  if (as === "key") {
    await page.goto("/admin");
    await page.getByRole("tab", { name: options.language === "zh" ? "API 密钥" : "API key" }).click();
    await page.locator("input[autocomplete=off]").first().fill(data.key);
    await page.locator("form button[type=submit]").click();
    // Signed in once the app keeps the key (the panel's navigation may sit in a menu on a phone).
    await page.waitForFunction(() => localStorage.getItem("api_key") !== null);
  }
  return { context, page };
}

/** Opens a screen and waits until it has settled (its heading shows, lazy chunks and data loaded). */
export async function showScreen(page: Page, screen: Screen): Promise<void> {
  await page.goto(screen.path);
  await expect(page.getByRole("heading").first()).toBeVisible();
  // Settled when nothing shows that it is loading (skeletons, spinners): quicker than waiting
  // for half a second of network silence on every screen.
  await expect(page.locator('[aria-busy="true"], .animate-spin')).toHaveCount(0);
  await screen.prepare?.(page);
}
