import { markdownKeymap, markdownLanguage, pasteURLAsLink } from "@codemirror/lang-markdown";
import { Language, LanguageDescription, LanguageSupport, ParseContext } from "@codemirror/language";
import { Prec } from "@codemirror/state";
import { keymap } from "@codemirror/view";
import { type MarkdownParser, parseCode } from "@lezer/markdown";
import { FENCE_LANGUAGES } from "./fence-languages";

/**
 * Markdown (GFM) for the editor, with fenced code coloured in its own language once
 * that language's parser has loaded. Built from the Markdown language itself rather
 * than the package's `markdown()` helper: the helper always bundles the HTML, CSS and
 * JavaScript parsers (about 57 KB gzip) to colour inline HTML, which a paste editor
 * can do without; an ```html fence still loads the HTML parser on demand.
 */

type Parser = ReturnType<typeof ParseContext.getSkippingParser>;

/** The parser for a fence's info string ("ts", "python {.numbered}"), or none. */
function fencedCodeParser(info: string): Parser | null {
  const name = /\S*/.exec(info)?.[0];
  const found = name ? LanguageDescription.matchLanguageName(FENCE_LANGUAGES, name, true) : null;
  if (!found) return null;
  // Not loaded yet: parse nothing for now and re-parse once it has arrived.
  return found.support ? found.support.language.parser : ParseContext.getSkippingParser(found.load());
}

const parser = (markdownLanguage.parser as MarkdownParser).configure(
  parseCode({ codeParser: fencedCodeParser }),
);
const editorMarkdown = new Language(markdownLanguage.data, parser, [], "markdown");

export const markdownSupport = new LanguageSupport(editorMarkdown, [
  Prec.high(keymap.of(markdownKeymap)),
  pasteURLAsLink,
]);
