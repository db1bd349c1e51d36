import { mkdirSync, symlinkSync } from "node:fs";
import path from "node:path";
import { Permission } from "@clipshare/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLocalStorage, createMount } from "../support/fs-helpers";
import { createTestApp, type TestApp } from "../support/test-app";
import { describeFileRequestSuite } from "./file-requests-suite";

describeFileRequestSuite("LOCAL", (t) => createLocalStorage(t));

describe("a folder request cannot leave its folder through a symbolic link", () => {
  let t: TestApp;
  let key: string;
  beforeAll(async () => {
    t = await createTestApp();
    const storage = await createLocalStorage(t, "linked");
    await createMount(t, storage, "/d");
    const root = path.join(t.dataDir, "linked");
    mkdirSync(path.join(root, "inbox"), { recursive: true });
    mkdirSync(path.join(root, "private"), { recursive: true });
    symlinkSync("../private", path.join(root, "inbox", "out"));
    key = (
      await t.createApiKey(Permission.FILE_SHARE | Permission.MOUNT_VIEW | Permission.MOUNT_UPLOAD, {
        basic_path: "/d/inbox",
      })
    ).key;
  });
  afterAll(async () => {
    await t?.close();
  });

  it("a key confined to /d/inbox cannot point a request at a link leaving it", async () => {
    const res = await t.request("POST", "/api/requests", {
      apiKey: key,
      body: { title: "x", target: { kind: "folder", path: "/d/inbox/out" } },
    });
    expect(res.status, res.text).toBe(400);
    expect(res.body.error).toBe("request_target_invalid");
  });
});
