/**
 * The module boundaries of ClipShare, read from the source: which file may
 * import which. A small parser finds every import (static, re-export, type,
 * dynamic, require) and resolves relative ones to repository paths; the
 * rules below say what each layer may not reach.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

export interface ImportRef {
  /** The importing file, relative to the repository root ("/" separators). */
  file: string;
  line: number;
  specifier: string;
  /** The imported file relative to the root, without extension; null for packages. */
  target: string | null;
  /** `import type` / `export type`: erased at build time. */
  typeOnly: boolean;
}

export interface Violation {
  ref: ImportRef;
  rule: string;
}

const SOURCE = /\.(ts|tsx|mts|js|mjs)$/;
const IMPORT =
  /(?:^|[\s;}])(?:import|export)\s+(type\s+)?(?:[\w*${}\s,]*?\s+from\s+)?["']([^"']+)["']|\b(?:import|require)\s*\(\s*["']([^"']+)["']\s*\)/g;

/** Every source file below `dir` (relative to `root`), tests and declaration files left out. */
export function sourceFiles(root: string, dir: string): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    for (const entry of readdirSync(path.join(root, rel), { withFileTypes: true })) {
      const child = `${rel}/${entry.name}`;
      if (entry.isDirectory()) {
        if (entry.name !== "node_modules" && entry.name !== "dist") walk(child);
      } else if (SOURCE.test(entry.name) && !/\.(test|spec)\.|\.d\.ts$/.test(entry.name)) out.push(child);
    }
  };
  walk(dir);
  return out.sort();
}

/** The imports of one source text. Comments are blanked first (keeping line numbers). */
export function parseImports(file: string, text: string): ImportRef[] {
  const code = text
    .replace(/\/\*[\s\S]*?\*\//g, (m) => m.replace(/[^\n]/g, " "))
    .replace(/^\s*\/\/.*$/gm, (m) => " ".repeat(m.length));
  const refs: ImportRef[] = [];
  for (const match of code.matchAll(IMPORT)) {
    const specifier = (match[2] ?? match[3])!;
    const line = code.slice(0, match.index).split("\n").length + (match[0].startsWith("\n") ? 1 : 0);
    const target = specifier.startsWith(".")
      ? path.posix.join(path.posix.dirname(file), specifier).replace(/\.(ts|tsx|js|mjs)$/, "")
      : null;
    refs.push({ file, line, specifier, target, typeOnly: Boolean(match[1]) });
  }
  return refs;
}

export function importsBelow(root: string, dir: string): ImportRef[] {
  return sourceFiles(root, dir).flatMap((file) =>
    parseImports(file, readFileSync(path.join(root, file), "utf8")),
  );
}

const under = (target: string | null, dir: string) =>
  target !== null && (target === dir || target.startsWith(`${dir}/`));

/**
 * Server: domain services hold the business rules and are handed everything
 * concrete by context.ts. They import no transport (http/, webdav/), no
 * concrete storage driver or its factory (only its types), no database
 * client library (pg) or cloud SDK, and neither the configuration nor the
 * composition root.
 */
export function serverViolations(refs: ImportRef[]): Violation[] {
  const out: Violation[] = [];
  for (const ref of refs) {
    if (!ref.file.startsWith("server/src/domain/")) continue;
    const t = ref.target;
    const rule =
      under(t, "server/src/http") || under(t, "server/src/webdav")
        ? "domain imports no transport (http/, webdav/)"
        : under(t, "server/src/storage/drivers")
          ? "domain imports no concrete storage driver"
          : t === "server/src/storage/create-driver" && !ref.typeOnly
            ? "domain gets its driver factory from context.ts (type imports only)"
            : t === "server/src/config" || t === "server/src/context"
              ? "domain is given values, not the configuration or the composition root"
              : ref.specifier === "pg" ||
                  ref.specifier.startsWith("pg/") ||
                  ref.specifier.startsWith("@aws-sdk/")
                ? "domain imports no database client or cloud SDK"
                : null;
    if (rule) out.push({ ref, rule });
  }
  return out;
}

/**
 * Web: a feature (web/src/features/<name>/) imports shared UI (components/),
 * shared code (lib/), the texts (i18n/, its index only), the wire contract
 * (@clipshare/shared), npm packages and its own folder. Another feature only
 * through that feature's index.ts, which names nothing but the way to its
 * pages (see NAVIGATION_EXPORT): what several features use lives in
 * components/ or lib/.
 */
export function webViolations(refs: ImportRef[]): Violation[] {
  const out: Violation[] = [];
  for (const ref of refs) {
    // Shared code and shared UI sit below the screens: lib/ reaches no UI, components/ no screen.
    const layer = ref.file.startsWith("web/src/lib/")
      ? "lib"
      : ref.file.startsWith("web/src/components/")
        ? "components"
        : null;
    if (layer) {
      const t = ref.target;
      const up =
        under(t, "web/src/features") ||
        under(t, "web/src/app") ||
        (layer === "lib" && under(t, "web/src/components"));
      if (up)
        out.push({
          ref,
          rule:
            layer === "lib"
              ? "lib/ imports no UI (components/, features/, app/)"
              : "components/ import no screen (features/, app/)",
        });
      continue;
    }
    const own = /^web\/src\/features\/([^/]+)\//.exec(ref.file)?.[1];
    if (!own || ref.target === null) continue;
    const t = ref.target;
    if (under(t, "web/src/components") || under(t, "web/src/lib") || under(t, `web/src/features/${own}`))
      continue;
    // The texts: through the i18n module's public index only.
    if (t === "web/src/i18n" || t === "web/src/i18n/index") continue;
    const other = /^web\/src\/features\/[^/]+(\/.*)?$/.exec(t);
    if (other && (other[1] === undefined || other[1] === "/index")) continue;
    out.push({
      ref,
      rule: other
        ? "another feature only through its index.ts"
        : "features import only components/, lib/, i18n/, @clipshare/shared and their own folder",
    });
  }
  return out;
}

/**
 * What a feature's index.ts may export: the screens the router or the admin
 * panel opens (`…Page`, `…Module`) and links to them (`…Href`). Anything else
 * another feature wants is a shared piece and belongs in components/ or lib/.
 */
export const NAVIGATION_EXPORT = /^(?:[A-Z]\w*(?:Page|Module)|[a-z]\w*Href)$/;

export interface ExportRef {
  file: string;
  line: number;
  name: string;
}

/** The names a module exports (declarations, `export { … }` lists and `export *`, written as "*"). */
export function parseExports(file: string, text: string): ExportRef[] {
  const out: ExportRef[] = [];
  const lineOf = (index: number) => text.slice(0, index).split("\n").length;
  for (const m of text.matchAll(
    /^export\s+(?:declare\s+)?(?:default\s+)?(?:async\s+)?(?:const|let|var|function\*?|type|interface|class|enum)\s+([A-Za-z_$][\w$]*)/gm,
  ))
    out.push({ file, line: lineOf(m.index), name: m[1]! });
  for (const m of text.matchAll(/^export\s+(?:type\s+)?\{([^}]*)\}/gm))
    for (const part of m[1]!.split(",")) {
      const name = part
        .trim()
        .replace(/^type\s+/, "")
        .split(/\s+as\s+/)
        .pop();
      if (name) out.push({ file, line: lineOf(m.index), name });
    }
  for (const m of text.matchAll(/^export\s+(?:type\s+)?\*/gm))
    out.push({ file, line: lineOf(m.index), name: "*" });
  return out.sort((a, b) => a.line - b.line);
}

/** Exports of features' index.ts files that are not a way to a page. */
export function featureIndexViolations(exports: ExportRef[]): ExportRef[] {
  return exports.filter(
    (e) => /^web\/src\/features\/[^/]+\/index\.ts$/.test(e.file) && !NAVIGATION_EXPORT.test(e.name),
  );
}

/**
 * The import cycles among `refs`' files: each a list of files (without extension) that reach
 * one another. Every kind of import counts (type-only and lazy ones too): a cycle of any kind
 * means two modules that cannot be read, tested or moved apart.
 */
export function importCycles(refs: ImportRef[]): string[][] {
  const stem = (file: string) => file.replace(/\.(ts|tsx|mts|js|mjs)$/, "");
  const files = new Set(refs.map((r) => stem(r.file)));
  const resolve = (t: string) => (files.has(t) ? t : files.has(`${t}/index`) ? `${t}/index` : null);
  const edges = new Map<string, Set<string>>();
  for (const ref of refs) {
    const to = ref.target === null ? null : resolve(ref.target);
    if (!to) continue;
    const from = stem(ref.file);
    if (!edges.has(from)) edges.set(from, new Set());
    edges.get(from)!.add(to);
  }
  // Tarjan's strongly connected components; a component of two or more files is a cycle.
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1) cycles.push(component.sort());
  };
  for (const v of [...edges.keys()].sort()) if (!index.has(v)) visit(v);
  return cycles;
}
