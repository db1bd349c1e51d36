import hljs from "highlight.js/lib/core";
import bash from "highlight.js/lib/languages/bash";
import c from "highlight.js/lib/languages/c";
import cpp from "highlight.js/lib/languages/cpp";
import csharp from "highlight.js/lib/languages/csharp";
import css from "highlight.js/lib/languages/css";
import diff from "highlight.js/lib/languages/diff";
import dockerfile from "highlight.js/lib/languages/dockerfile";
import go from "highlight.js/lib/languages/go";
import ini from "highlight.js/lib/languages/ini";
import java from "highlight.js/lib/languages/java";
import javascript from "highlight.js/lib/languages/javascript";
import json from "highlight.js/lib/languages/json";
import kotlin from "highlight.js/lib/languages/kotlin";
import markdown from "highlight.js/lib/languages/markdown";
import php from "highlight.js/lib/languages/php";
import python from "highlight.js/lib/languages/python";
import ruby from "highlight.js/lib/languages/ruby";
import rust from "highlight.js/lib/languages/rust";
import sql from "highlight.js/lib/languages/sql";
import swift from "highlight.js/lib/languages/swift";
import typescript from "highlight.js/lib/languages/typescript";
import xml from "highlight.js/lib/languages/xml";
import yaml from "highlight.js/lib/languages/yaml";
import "./highlight.css";
import { codeLanguage, type Highlighter } from "./code-language";

/**
 * Code highlighting, loaded only when a paste has code to colour. The usual
 * languages of pasted snippets are registered (with their aliases: sh, js, ts,
 * py, html, yml, …); others are shown uncoloured. Output is escaped HTML.
 */
const LANGUAGES = {
  bash,
  c,
  cpp,
  csharp,
  css,
  diff,
  dockerfile,
  go,
  ini,
  java,
  javascript,
  json,
  kotlin,
  markdown,
  php,
  python,
  ruby,
  rust,
  sql,
  swift,
  typescript,
  xml,
  yaml,
};
for (const [name, language] of Object.entries(LANGUAGES)) hljs.registerLanguage(name, language);

export const highlightCode: Highlighter = (code, language) => {
  const name = codeLanguage(language);
  if (!name || !hljs.getLanguage(name)) return null;
  return hljs.highlight(code, { language: name, ignoreIllegals: true }).value;
};

/** Texts larger than this are shown without guessing a language (guessing tries them all). */
const AUTO_DETECT_MAX_CHARS = 50_000;
/** Below this score a guess is likely prose coloured at random. */
const AUTO_DETECT_MIN_RELEVANCE = 12;

/** Colours a plain-text paste when it clearly is code; null otherwise. */
export function highlightPlainText(text: string): { html: string; language: string } | null {
  if (text.length === 0 || text.length > AUTO_DETECT_MAX_CHARS) return null;
  const result = hljs.highlightAuto(text);
  if (!result.language || result.relevance < AUTO_DETECT_MIN_RELEVANCE) return null;
  return { html: result.value, language: result.language };
}
