/** Returns highlighted HTML (escaped by the highlighter) or null to show the code as it is. */
export type Highlighter = (code: string, language: string | undefined) => string | null;

/** The info string's first word, as a class-safe language name. */
export function codeLanguage(info: string | undefined): string | undefined {
  const word = info?.trim().split(/\s+/)[0]?.toLowerCase();
  return word && /^[a-z0-9_+#.-]{1,40}$/.test(word) ? word : undefined;
}
