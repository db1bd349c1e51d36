/**
 * Whether a text reads as Markdown. Pastes carry no format of their own, so the
 * view page starts in rendered mode for texts that use Markdown syntax and in
 * plain mode otherwise; the reader can switch either way.
 */

const SAMPLE_CHARS = 20_000;

/** One of these alone makes a text Markdown. */
const STRONG: RegExp[] = [
  /^#{1,6}[ \t]+\S/m, // ATX heading
  /^[ \t]{0,3}(?:```|~~~)/m, // fenced code
  /^[ \t]*[-*+][ \t]+\[[ xX]\][ \t]/m, // task list item
  /^[ \t]*\|?[ \t]*:?-{3,}:?[ \t]*\|[ \t]*:?-{3,}/m, // table delimiter row
  /!?\[[^\]\n]+\]\((?:[^)\s]+)(?:[ \t]+"[^"\n]*")?\)/, // link or image
  /^\S.*\n(?:=+|-{2,})[ \t]*$/m, // setext heading
];

/** These need company: a dash list or a bold word also occurs in plain notes. */
const WEAK: RegExp[] = [
  /^[ \t]*(?:[-*+]|\d{1,3}[.)])[ \t]+\S/m, // list item
  /^>[ \t]?\S/m, // block quote
  /(?:\*\*|__)[^*_\n]+(?:\*\*|__)/, // bold
  /`[^`\n]+`/, // inline code
  /^[ \t]{0,3}(?:-{3,}|\*{3,})[ \t]*$/m, // thematic break
];

export function looksLikeMarkdown(text: string): boolean {
  const sample = text.length > SAMPLE_CHARS ? text.slice(0, SAMPLE_CHARS) : text;
  if (STRONG.some((re) => re.test(sample))) return true;
  return WEAK.filter((re) => re.test(sample)).length >= 2;
}

/** Fenced or indented code that the highlighter can colour. */
export function hasCodeBlock(markdown: string): boolean {
  return /^[ \t]{0,3}(?:```|~~~)/m.test(markdown) || /(?:^|\n\n)(?: {4}|\t)\S/.test(markdown);
}

/** How a paste's text is shown and edited. */
export type TextFormat = "markdown" | "plain";

export function formatOf(text: string): TextFormat {
  return looksLikeMarkdown(text) ? "markdown" : "plain";
}

/** File extension for a download: Markdown keeps .md, anything else is .txt. */
export function downloadExtension(format: TextFormat): "md" | "txt" {
  return format === "markdown" ? "md" : "txt";
}

/** Keywords that open a line of code in the languages the highlighter knows. */
const CODE_LINE_START =
  /^\s*(?:(?:export\s+)?(?:function|const|let|var|class|interface|enum|type|async|def|fn|func|pub|impl|struct|package|namespace|using|public|private|protected|static|return|import|from|require|echo|if|elif|else|for|foreach|while|switch|case|try|catch|SELECT|INSERT|UPDATE|DELETE|CREATE|ALTER|DROP|FROM|WHERE|RUN|COPY)\b|#include\b|#!\/|<\?php|<!DOCTYPE|<\/?[a-zA-Z][\w-]*[\s>]|\$ |@@ |\+\+\+ |--- a\/|[{}[\]]\s*,?\s*$|["']?[\w.$-]+["']?\s*[:=]\s*\S)/;
/** A line that ends the way statements, blocks and lists of code do. */
const CODE_LINE_END = /[;{}([]\s*$|=>\s*$|:\s*$/;
/** Characters that prose rarely uses but code is full of. */
const CODE_PUNCTUATION = /[{}[\]();=<>|&$_\\/*+#"'`]/g;
/** Looked at, at most: the decision is cheap even for a large paste. */
const CODE_SAMPLE_CHARS = 4_000;

/**
 * Whether a plain text may be code, decided cheaply before the highlighter (and its
 * guess over every language) is loaded: most lines start or end like code, or code
 * punctuation is dense. Prose and notes answer false, so they never load it; a false
 * true only costs the highlighter's own, stricter guess.
 */
export function mayBeCode(text: string): boolean {
  const sample = text.length > CODE_SAMPLE_CHARS ? text.slice(0, CODE_SAMPLE_CHARS) : text;
  const lines = sample.split("\n").filter((line) => line.trim() !== "");
  if (lines.length === 0) return false;
  const codeLines = lines.filter((line) => CODE_LINE_START.test(line) || CODE_LINE_END.test(line)).length;
  const visible = sample.replace(/\s/g, "").length;
  const punctuation = sample.match(CODE_PUNCTUATION)?.length ?? 0;
  if (lines.length >= 2 && codeLines / lines.length >= 0.5) return true;
  return visible >= 20 && punctuation / visible >= 0.12;
}
