import { LanguageDescription, type LanguageSupport, type StreamParser } from "@codemirror/language";

/**
 * The languages the editor colours inside fenced code: those the paste view's
 * highlighter colours too, each loaded on first use. A list of our own rather than
 * `@codemirror/language-data`, and HTML (tags only) and no PHP from the Lezer parsers:
 * the editor's Markdown module imports `@codemirror/lang-html`, so any use of that
 * package (its own, Markdown's, PHP's) would put it and the CSS and JavaScript parsers
 * it imports, about 57 KB gzip, into the editor's first download.
 */

/** A CodeMirror 5 style mode (`@codemirror/legacy-modes`) as a language. */
const legacy = async (mode: Promise<StreamParser<unknown>>): Promise<LanguageSupport> => {
  const [{ StreamLanguage, LanguageSupport }, parser] = await Promise.all([
    import("@codemirror/language"),
    mode,
  ]);
  return new LanguageSupport(StreamLanguage.define(parser));
};

const fence = (name: string, alias: string[], load: () => Promise<LanguageSupport>) =>
  LanguageDescription.of({ name, alias, load });

export const FENCE_LANGUAGES: readonly LanguageDescription[] = [
  fence("JavaScript", ["js", "jsx", "mjs", "cjs", "node"], () =>
    import("@codemirror/lang-javascript").then((m) => m.javascript({ jsx: true })),
  ),
  fence("TypeScript", ["ts", "tsx", "mts", "cts"], () =>
    import("@codemirror/lang-javascript").then((m) => m.javascript({ jsx: true, typescript: true })),
  ),
  fence("JSON", ["json5", "jsonc"], () => import("@codemirror/lang-json").then((m) => m.json())),
  fence("HTML", ["htm", "xhtml", "vue", "svelte"], () =>
    legacy(import("@codemirror/legacy-modes/mode/xml").then((m) => m.html)),
  ),
  fence("XML", ["svg", "plist", "xsl"], () => import("@codemirror/lang-xml").then((m) => m.xml())),
  fence("CSS", ["scss", "less"], () => import("@codemirror/lang-css").then((m) => m.css())),
  fence("Python", ["py", "python3"], () => import("@codemirror/lang-python").then((m) => m.python())),
  fence("Java", [], () => import("@codemirror/lang-java").then((m) => m.java())),
  fence("C++", ["cpp", "c", "h", "hpp", "cc", "cxx"], () =>
    import("@codemirror/lang-cpp").then((m) => m.cpp()),
  ),
  fence("C#", ["csharp", "cs"], () =>
    legacy(import("@codemirror/legacy-modes/mode/clike").then((m) => m.csharp)),
  ),
  fence("Kotlin", ["kt", "kts"], () =>
    legacy(import("@codemirror/legacy-modes/mode/clike").then((m) => m.kotlin)),
  ),
  fence("Go", ["golang"], () => import("@codemirror/lang-go").then((m) => m.go())),
  fence("Rust", ["rs"], () => import("@codemirror/lang-rust").then((m) => m.rust())),
  fence("SQL", ["postgresql", "mysql", "sqlite"], () => import("@codemirror/lang-sql").then((m) => m.sql())),
  fence("YAML", ["yml"], () => import("@codemirror/lang-yaml").then((m) => m.yaml())),
  fence("Shell", ["bash", "sh", "zsh", "console"], () =>
    legacy(import("@codemirror/legacy-modes/mode/shell").then((m) => m.shell)),
  ),
  fence("Diff", ["patch"], () => legacy(import("@codemirror/legacy-modes/mode/diff").then((m) => m.diff))),
  fence("Dockerfile", ["docker"], () =>
    legacy(import("@codemirror/legacy-modes/mode/dockerfile").then((m) => m.dockerFile)),
  ),
  fence("INI", ["properties", "conf", "env"], () =>
    legacy(import("@codemirror/legacy-modes/mode/properties").then((m) => m.properties)),
  ),
  fence("TOML", [], () => legacy(import("@codemirror/legacy-modes/mode/toml").then((m) => m.toml))),
  fence("Ruby", ["rb"], () => legacy(import("@codemirror/legacy-modes/mode/ruby").then((m) => m.ruby))),
  fence("Swift", [], () => legacy(import("@codemirror/legacy-modes/mode/swift").then((m) => m.swift))),
];
