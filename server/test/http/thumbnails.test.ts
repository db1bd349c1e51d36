import { readdirSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLocalStorage, createMount, mustPut } from "../support/fs-helpers";
import { createTestApp, type TestApp } from "../support/test-app";
import { describeThumbnailSuite, testImage } from "./thumbnails-suite";

describeThumbnailSuite("LOCAL", (t) => createLocalStorage(t, "thumbs-disk"));

describe("the thumbnail cache", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ THUMBNAIL_CACHE_SIZE: "24K" });
    await createMount(t, await createLocalStorage(t, "evict-disk"), "/e");
  });
  afterAll(async () => t.close());

  const cached = () =>
    readdirSync(path.join(t.dataDir, "thumbnails"), { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && e.name.endsWith(".webp"))
      .map((e) => e.name);

  it("stays within THUMBNAIL_CACHE_SIZE: the least recently used thumbnails go first", async () => {
    const token = await t.adminToken();
    const etags: string[] = [];
    for (let i = 0; i < 8; i++) {
      const file = `/e/noise-${i}.png`;
      await mustPut(t, file, await testImage(900, 700 + i, "png"), { token });
      const res = await t.app.request(`/api/fs/thumbnail?path=${encodeURIComponent(file)}&size=1024`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(res.status).toBe(200);
      await res.arrayBuffer();
      etags.push(res.headers.get("etag")!.replaceAll('"', ""));
    }
    const names = cached();
    expect(names.length).toBeGreaterThan(0);
    expect(names.length).toBeLessThan(8);
    // The newest stays, the oldest went.
    expect(names).toContain(`${etags[7]}.webp`);
    expect(names).not.toContain(`${etags[0]}.webp`);
  });

  it("more requests than the queue holds are told to come back (503, Retry-After), and then served", async () => {
    const token = await t.adminToken();
    const headers = { authorization: `Bearer ${token}` };
    const image = await testImage(2000, 1500, "png");
    const files = Array.from({ length: 75 }, (_, i) => `/e/busy/${i}.png`);
    for (const file of files) await mustPut(t, file, image, { token });
    const url = (file: string) => `/api/fs/thumbnail?path=${encodeURIComponent(file)}`;
    const answers = await Promise.all(files.map((file) => t.app.request(url(file), { headers })));
    const busy = answers.flatMap((res, i) => (res.status === 503 ? [{ res, file: files[i]! }] : []));
    expect(busy.length).toBeGreaterThan(0);
    expect(answers.filter((res) => res.status === 200).length).toBeGreaterThanOrEqual(64);
    expect(busy[0]!.res.headers.get("retry-after")).toBe("2");
    expect(await busy[0]!.res.json()).toMatchObject({ success: false, error: "thumbnail_busy" });
    for (const { file } of busy) expect((await t.app.request(url(file), { headers })).status).toBe(200);
  });
});
