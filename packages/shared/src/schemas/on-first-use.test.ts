import { describe, expect, it } from "vitest";
import { z } from "zod";
import * as accessLog from "../access-log";
import * as admin from "./admin";
import * as apiKeys from "./api-keys";
import * as common from "./common";
import * as files from "./files";
import * as fs from "./fs";
import * as mounts from "./mounts";
import * as multipart from "./multipart";
import { onFirstUse } from "./on-first-use";
import * as pastes from "./pastes";
import * as settings from "./settings";
import * as storageConfigs from "./storage-configs";
import * as urlUpload from "./url-upload";

const MODULES = {
  accessLog,
  admin,
  apiKeys,
  common,
  files,
  fs,
  mounts,
  multipart,
  pastes,
  settings,
  storageConfigs,
  urlUpload,
};

describe("onFirstUse", () => {
  it("builds the schema on its first parse, once", () => {
    let builds = 0;
    const schema = onFirstUse(() => {
      builds++;
      return z.object({ name: z.string().min(1, "Name is required") });
    });
    expect(builds).toBe(0);
    expect(schema.parse({ name: "a" })).toEqual({ name: "a" });
    expect(schema.safeParse({ name: "" }).error?.issues[0]).toMatchObject({
      message: "Name is required",
      path: ["name"],
    });
    expect(schema.optional().parse(undefined)).toBeUndefined();
    expect(builds).toBe(1);
  });

  it("gives the same JSON Schema as the schema it builds, inline", () => {
    const build = () => z.object({ size: z.number().int().describe("Bytes"), tag: z.string().optional() });
    const { $schema: _a, ...lazy } = z.toJSONSchema(onFirstUse(build)) as Record<string, unknown>;
    const { $schema: _b, ...plain } = z.toJSONSchema(build()) as Record<string, unknown>;
    expect(lazy).toEqual(plain);
    expect(JSON.stringify(lazy)).not.toContain("$ref");
  });
});

describe("shared request schemas", () => {
  it("are all built on first use, so importing them builds none", () => {
    const eager: string[] = [];
    let count = 0;
    for (const [module, exports] of Object.entries(MODULES)) {
      for (const [name, value] of Object.entries(exports)) {
        if (!(value instanceof z.ZodType)) continue;
        count++;
        if (value._zod.def.type !== "lazy") eager.push(`${module}.${name}`);
      }
    }
    expect(count).toBeGreaterThan(60);
    expect(eager).toEqual([]);
  });
});
