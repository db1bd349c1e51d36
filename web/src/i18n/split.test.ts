import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { flattenTexts } from "./flatten-texts";
import adminEn from "./locales/admin/en.json";
import en from "./locales/en.json";

/*
 * Visitors load only the shell texts (locales/{en,zh}.json); the router loads the admin
 * texts with the pages it wraps in `withAdminTexts`. This follows the imports from
 * main.tsx, without entering those pages, and checks that every key the code reached
 * that way names is a shell text, so no visitor page can show a raw key.
 */
const SRC = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const ROUTER = join(SRC, "app/router.tsx");

const shell = flattenTexts(en);
const admin = flattenTexts(adminEn);
const allKeys = [...shell.keys(), ...admin.keys()];

function resolveImport(from: string, spec: string): string | null {
  if (!spec.startsWith(".")) return null;
  const base = resolve(dirname(from), spec);
  for (const file of [base, `${base}.ts`, `${base}.tsx`, join(base, "index.ts"), join(base, "index.tsx")])
    if (existsSync(file) && statSync(file).isFile()) return file;
  return null;
}

const read = (file: string) => readFileSync(file, "utf8");

/** Pages the router renders only once the admin texts are loaded. */
function adminPages(): Set<string> {
  const found = [...read(ROUTER).matchAll(/withAdminTexts\(\s*import\(\s*"([^"]+)"/g)];
  return new Set(found.map((m) => resolveImport(ROUTER, m[1]!)).filter((f): f is string => f !== null));
}

/** Source files reachable from main.tsx by static and dynamic imports (not type-only ones). */
function visitorModules(skip: Set<string>): Set<string> {
  const seen = new Set<string>();
  const stack = [join(SRC, "main.tsx")];
  const importPattern =
    /(?:^|\n)\s*(?:import|export)\s+(?!type\s)[^;"']*?from\s+"([^"]+)"|import\(\s*"([^"]+)"\s*\)|(?:^|\n)import\s+"([^"]+)"/g;
  while (stack.length > 0) {
    const file = stack.pop()!;
    if (seen.has(file) || !/\.tsx?$/.test(file)) continue;
    seen.add(file);
    for (const m of read(file).matchAll(importPattern)) {
      const target = resolveImport(file, (m[1] ?? m[2] ?? m[3])!);
      if (target && !skip.has(target)) stack.push(target);
    }
  }
  return seen;
}

/** Text keys a source file names: literal keys (or plural stems) and `prefix.${…}` families. */
function keysNamedIn(source: string): string[] {
  const named = new Set<string>();
  for (const [, key] of source.matchAll(/["'`]([a-zA-Z]\w*(?:\.\w+)+)["'`]/g))
    for (const k of [key!, `${key}_one`, `${key}_other`]) if (shell.has(k) || admin.has(k)) named.add(k);
  for (const [, prefix] of source.matchAll(/`([a-zA-Z]\w*(?:\.\w+)*)\.\$\{/g))
    for (const k of allKeys) if (k.startsWith(`${prefix}.`)) named.add(k);
  return [...named];
}

describe("shell texts", () => {
  const pages = adminPages();

  it("are all the router's visitor pages need: admin pages load the rest", () => {
    // The admin panel, uploads, the explorer and the API docs.
    expect(pages.size).toBeGreaterThanOrEqual(4);
    const missing: string[] = [];
    for (const file of visitorModules(pages)) {
      if (file.includes(".test.")) continue;
      for (const key of keysNamedIn(read(file)))
        if (!shell.has(key)) missing.push(`${relative(SRC, file)}: ${key}`);
    }
    expect(missing).toEqual([]);
  });

  it("are found by the check (it reads keys the way the code writes them)", () => {
    const source = `t("pasteView.copyLink"); t(\`pasteView.unavailable.\${reason}.title\`); t("upload.summary", { count })`;
    const keys = keysNamedIn(source);
    expect(keys).toContain("pasteView.copyLink");
    expect(keys).toContain("pasteView.unavailable.expired.title");
    expect(keys).toEqual(expect.arrayContaining(["upload.summary_one", "upload.summary_other"]));
  });
});
