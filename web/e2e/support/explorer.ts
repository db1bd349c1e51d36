import type { APIRequestContext, Locator, Page } from "@playwright/test";
import { expect } from "./fixtures";
import { s3Env, servicesRequired } from "./s3-env";

/** The Swift S3 service, or null; under `npm test` (CLIPSHARE_REQUIRE_SERVICES=1) a missing S3 fails instead. */
export function explorerS3Env() {
  const s3 = s3Env();
  if (!s3 && servicesRequired())
    throw new Error("CLIPSHARE_TEST_S3_* is not set; start scripts/test-services/start.sh");
  return s3;
}

const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

export async function readFile(request: APIRequestContext, token: string, path: string): Promise<Buffer> {
  const res = await request.get(`/api/fs/download?path=${encodeURIComponent(path)}`, {
    headers: auth(token),
  });
  expect(res.status()).toBe(200);
  return Buffer.from(await res.body());
}

export async function listNames(request: APIRequestContext, token: string, path: string): Promise<string[]> {
  const res = await request.get(`/api/fs/list?path=${encodeURIComponent(path)}&refresh=true`, {
    headers: auth(token),
  });
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()).data.items as { name: string }[]).map((i) => i.name);
}

export const entry = (page: Page, name: string): Locator => page.locator(`[data-entry="${name}"]`);

/**
 * Drops a folder tree the way a browser does: DataTransferItems whose
 * webkitGetAsEntry() returns directory entries (readEntries in batches, then []).
 * Chromium cannot build real FileSystemEntry objects from a script, so the
 * entries are stand-ins with the same interface; the files are real File objects.
 */
export async function dropFolder(page: Page, target: Locator, folder: string, files: Record<string, string>) {
  const dataTransfer = await page.evaluateHandle(
    ({ folder, files }) => {
      type Node = { dirs: Map<string, Node>; files: Map<string, string> };
      const root: Node = { dirs: new Map(), files: new Map() };
      for (const [path, content] of Object.entries(files)) {
        const parts = path.split("/");
        let node = root;
        for (const part of parts.slice(0, -1)) {
          if (!node.dirs.has(part)) node.dirs.set(part, { dirs: new Map(), files: new Map() });
          node = node.dirs.get(part)!;
        }
        node.files.set(parts[parts.length - 1]!, content);
      }
      const toEntry = (name: string, node: Node): unknown => ({
        isFile: false,
        isDirectory: true,
        name,
        createReader: () => {
          let done = false;
          return {
            readEntries: (ok: (entries: unknown[]) => void) => {
              if (done) return setTimeout(() => ok([]), 0);
              done = true;
              const list: unknown[] = [
                ...[...node.dirs].map(([n, child]) => toEntry(n, child)),
                ...[...node.files].map(([n, content]) => ({
                  isFile: true,
                  isDirectory: false,
                  name: n,
                  file: (cb: (f: File) => void) => cb(new File([content], n, { type: "text/plain" })),
                })),
              ];
              setTimeout(() => ok(list), 0);
            },
          };
        },
      });
      const dt = new DataTransfer();
      const entryObj = toEntry(folder, root);
      const items = [{ kind: "file", type: "", getAsFile: () => null, webkitGetAsEntry: () => entryObj }];
      Object.defineProperty(dt, "items", { value: items });
      return dt;
    },
    { folder, files },
  );
  await target.dispatchEvent("dragenter", { dataTransfer });
  await target.dispatchEvent("dragover", { dataTransfer });
  await target.dispatchEvent("drop", { dataTransfer });
  await dataTransfer.dispose();
}
