/**
 * The module boundaries hold in the source tree (rules in import-rules.ts):
 * server domain code reaches no transport, concrete driver, pg or
 * configuration; web features reach other features only through their
 * index.ts, and only for the way to their pages.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  featureIndexViolations,
  importCycles,
  importsBelow,
  parseExports,
  parseImports,
  serverViolations,
  sourceFiles,
  webViolations,
} from "./import-rules";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../..");
const describeViolations = (list: ReturnType<typeof serverViolations>) =>
  list.map((v) => `${v.ref.file}:${v.ref.line} imports "${v.ref.specifier}": ${v.rule}`);

describe("import parser", () => {
  it("finds static, type, re-export, side-effect, dynamic and require imports, across lines", () => {
    const refs = parseImports(
      "server/src/domain/a/b.ts",
      [
        'import { x } from "./x";',
        'import type { Y } from "../y";',
        "import {",
        "  type Z,",
        "  w as v,",
        '} from "../../http/z";',
        'import * as all from "pg";',
        'import "./side-effect";',
        'export { q } from "./q";',
        'export type * from "./types";',
        'const lazy = await import("../lazy");',
        'const req = require("node:fs");',
        '// import { commented } from "../commented";',
        '/* import { block } from "../block"; */',
        'const text = "import nothing from here";',
      ].join("\n"),
    );
    expect(refs.map((r) => [r.specifier, r.target, r.typeOnly, r.line])).toEqual([
      ["./x", "server/src/domain/a/x", false, 1],
      ["../y", "server/src/domain/y", true, 2],
      ["../../http/z", "server/src/http/z", false, 3],
      ["pg", null, false, 7],
      ["./side-effect", "server/src/domain/a/side-effect", false, 8],
      ["./q", "server/src/domain/a/q", false, 9],
      ["./types", "server/src/domain/a/types", true, 10],
      ["../lazy", "server/src/domain/lazy", false, 11],
      ["node:fs", null, false, 12],
    ]);
  });
});

describe("server: domain/ boundaries", () => {
  it("domain code imports no http/, webdav/, concrete driver, pg, config or context", () => {
    const refs = importsBelow(root, "server/src");
    expect(refs.filter((r) => r.file.startsWith("server/src/domain/")).length).toBeGreaterThan(100);
    expect(describeViolations(serverViolations(refs))).toEqual([]);
  });

  it("flags each kind of violating import", () => {
    const refs = parseImports(
      "server/src/domain/files/example.ts",
      [
        'import { ok } from "../../http/envelope";',
        'import { DavError } from "../../webdav/status";',
        'import { S3Driver } from "../../storage/drivers/s3";',
        'import { createDriver } from "../../storage/create-driver";',
        'import type { DriverFactory } from "../../storage/create-driver";',
        'import type pg from "pg";',
        'import type { Config } from "../../config";',
        'import { S3Client } from "@aws-sdk/client-s3";',
        'import type { StorageDriver } from "../../storage/types";',
        'import { nowIso } from "../../db/database";',
      ].join("\n"),
    );
    expect(serverViolations(refs).map((v) => v.ref.line)).toEqual([1, 2, 3, 4, 6, 7, 8]);
  });
});

describe("web: feature boundaries", () => {
  it("features import other features only through index.ts", () => {
    const refs = importsBelow(root, "web/src");
    expect(refs.filter((r) => r.file.startsWith("web/src/features/")).length).toBeGreaterThan(100);
    expect(describeViolations(webViolations(refs))).toEqual([]);
  });

  it("a feature's index.ts names only its pages and links to them", () => {
    const indexes = sourceFiles(root, "web/src/features").filter((f) => f.endsWith("/index.ts"));
    expect(indexes.length).toBeGreaterThan(5);
    const exports = indexes.flatMap((f) => parseExports(f, readFileSync(path.join(root, f), "utf8")));
    expect(featureIndexViolations(exports).map((e) => `${e.file}:${e.line} exports ${e.name}`)).toEqual([]);
  });

  it("flags an index.ts export that is a shared piece rather than a way to a page", () => {
    const exports = parseExports(
      "web/src/features/pastes/index.ts",
      [
        'export { PastePage } from "./components/paste-page";',
        'export { TextManagementModule } from "./components/module";',
        'export { pasteHref } from "./links";',
        'export { ShareFields, type ShareFormValues } from "./share-fields";',
        'export * from "./api";',
        "export const loadEditor = () => import('./editor');",
      ].join("\n"),
    );
    expect(featureIndexViolations(exports).map((e) => [e.line, e.name])).toEqual([
      [4, "ShareFields"],
      [4, "ShareFormValues"],
      [5, "*"],
      [6, "loadEditor"],
    ]);
  });

  it("flags a deep import into another feature and one outside components/ and lib/", () => {
    const refs = parseImports(
      "web/src/features/home/components/card.tsx",
      [
        'import { Button } from "../../../components/ui/button";',
        'import { api } from "../../../lib/api";',
        'import { Draft } from "../draft-storage";',
        'import { pastes } from "../../pastes";',
        'import { qr } from "../../pastes/index";',
        'import { detect } from "../../pastes/markdown/detect";',
        'import { PasteContent } from "../../pastes/view";',
        'import { createAppRouter } from "../../../app/router";',
        'import { useTranslation } from "../../../i18n";',
        'import { loadAdminTexts } from "../../../i18n/admin-texts";',
        'import { PasteResponse } from "@clipshare/shared";',
        'import { useState } from "react";',
      ].join("\n"),
    );
    expect(webViolations(refs).map((v) => [v.ref.line, v.rule])).toEqual([
      [6, "another feature only through its index.ts"],
      [7, "another feature only through its index.ts"],
      [8, "features import only components/, lib/, i18n/, @clipshare/shared and their own folder"],
      [10, "features import only components/, lib/, i18n/, @clipshare/shared and their own folder"],
    ]);
  });
});

describe("import cycles and layers", () => {
  it("web/src and server/src have no import cycles, type-only and lazy imports included", () => {
    expect(importCycles(importsBelow(root, "web/src"))).toEqual([]);
    expect(importCycles(importsBelow(root, "server/src"))).toEqual([]);
  });

  it("finds a cycle made of a type-only and a lazy import, and only that one", () => {
    const refs = [
      ...parseImports("web/src/lib/a.ts", 'import type { B } from "./b";\nimport { c } from "./c";'),
      ...parseImports("web/src/lib/b.ts", 'export const load = () => import("./a");'),
      ...parseImports("web/src/lib/c/index.ts", 'import { d } from "../d";'),
      ...parseImports("web/src/lib/d.ts", 'import { x } from "react";'),
    ];
    expect(importCycles(refs)).toEqual([["web/src/lib/a", "web/src/lib/b"]]);
  });

  it("flags lib/ reaching UI and components/ reaching a screen", () => {
    const lib = parseImports(
      "web/src/lib/offline/sync.ts",
      [
        'import { toast } from "../../components/ui/toast";',
        'import { home } from "../../features/home";',
        'import { notices } from "../notices";',
      ].join("\n"),
    );
    const components = parseImports(
      "web/src/components/share-options.tsx",
      ['import { Button } from "./ui/button";', 'import { pastes } from "../features/pastes";'].join("\n"),
    );
    expect(webViolations([...lib, ...components]).map((v) => [v.ref.file, v.ref.line])).toEqual([
      ["web/src/lib/offline/sync.ts", 1],
      ["web/src/lib/offline/sync.ts", 2],
      ["web/src/components/share-options.tsx", 2],
    ]);
  });
});
