/**
 * The docs lead somewhere: every repository path and every link they name exists (rules in
 * docs-paths.ts), and the architecture document stays a map of at most 300 lines.
 * Superseded decision records are history and may name files that are gone.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  brokenRefs,
  HISTORY_MARK,
  headingAnchor,
  pathExists,
  pathsInSpan,
  repoTree,
  treeOf,
} from "./docs-paths";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const MAP_MAX_LINES = 300;

function markdownUnder(folder: string): string[] {
  return readdirSync(path.join(root, folder), { withFileTypes: true }).flatMap((entry) => {
    const relative = `${folder}/${entry.name}`;
    if (entry.isDirectory()) return markdownUnder(relative);
    return entry.name.endsWith(".md") ? [relative] : [];
  });
}

const docs = [
  "README.md",
  "CONTRIBUTING.md",
  "web/README.md",
  "packages/cli/README.md",
  ...markdownUnder("docs"),
];

describe("the path rules", () => {
  const tree = treeOf([
    "server/src/http/serve-object.ts",
    "web/src/lib/offline/idb.ts",
    "web/src/i18n/locales/en.json",
    "web/src/i18n/locales/zh.json",
    "web/src/features/pastes/api/pastes.ts",
  ]);
  const missing = (span: string) =>
    pathsInSpan(span, tree).filter((candidate) => !pathExists(candidate, tree));

  it("finds a path named relative to the folder the text is about", () => {
    expect(pathsInSpan("http/serve-object.ts", tree)).toEqual(["http/serve-object.ts"]);
    expect(missing("http/serve-object.ts")).toEqual([]);
    expect(missing("lib/offline/")).toEqual([]);
  });

  it("flags a file or folder that is gone", () => {
    expect(missing("lib/router/")).toEqual(["lib/router/"]);
    expect(missing("http/node-adapter/request.ts")).toEqual(["http/node-adapter/request.ts"]);
    expect(missing("react-on-preact.ts")).toEqual(["react-on-preact.ts"]);
  });

  it("expands alternatives and matches placeholders and globs against one segment", () => {
    expect(missing("locales/{en,zh}.json")).toEqual([]);
    expect(missing("locales/{en,fr}.json")).toEqual(["locales/fr.json"]);
    expect(missing("features/<name>/api/")).toEqual([]);
    expect(missing("features/*/api/pastes.ts")).toEqual([]);
    expect(missing("features/*/hooks/")).toEqual(["features/*/hooks/"]);
  });

  it("leaves out what is no repository path", () => {
    for (const span of [
      "DATA_DIR/files",
      "/api/paste/:slug",
      "@clipshare/shared",
      "node:http",
      "server/dist/main.js",
      "~/.config/clipshare/config.json",
      "clipshare.db",
      "npm run build",
      "https://example.com/x.ts",
    ]) {
      expect(pathsInSpan(span, tree), span).toEqual([]);
    }
  });

  it("checks links and fragments, and leaves history and superseded records alone", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "clipshare-docs-"));
    try {
      writeFileSync(path.join(dir, "topic.md"), "# Topic\n\n## Base paths\n");
      const current = "[a](topic.md#base-paths) [b](topic.md#gone) [c](missing.md) `http/serve-object.ts`";
      const history = "`lib/router/` [d](missing.md)";
      writeFileSync(path.join(dir, "map.md"), `${current} \`lib/router/\`\n${HISTORY_MARK}\n${history}\n`);
      writeFileSync(path.join(dir, "old.md"), `# 0001. Old\n\n- Status: superseded (reason)\n\n${history}\n`);
      expect(brokenRefs(dir, "map.md", tree).map((ref) => ref.ref)).toEqual([
        "lib/router/",
        "topic.md#gone",
        "missing.md",
      ]);
      expect(brokenRefs(dir, "old.md", tree)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("makes GitHub's heading anchors", () => {
    expect(headingAnchor("Texts and languages (`web/src/i18n`)")).toBe("texts-and-languages-websrci18n");
    expect(headingAnchor("Base paths and symbolic links")).toBe("base-paths-and-symbolic-links");
  });
});

describe("the docs", () => {
  const tree = repoTree(root);

  it.each(docs)("%s names only paths and links that exist", (doc) => {
    const broken = brokenRefs(root, doc, tree).map((ref) => `${ref.doc}:${ref.line} ${ref.ref}`);
    expect(broken).toEqual([]);
  });

  it(`keeps docs/architecture.md a map of at most ${MAP_MAX_LINES} lines`, () => {
    const lines = readFileSync(path.join(root, "docs/architecture.md"), "utf8").trimEnd().split("\n");
    expect(lines.length).toBeLessThanOrEqual(MAP_MAX_LINES);
  });
});
