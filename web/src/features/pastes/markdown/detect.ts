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
