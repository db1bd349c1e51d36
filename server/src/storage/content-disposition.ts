/**
 * Content-Disposition values per RFC 6266: a quoted ASCII `filename` for old
 * clients plus `filename*=UTF-8''…` (RFC 8187) whenever the name is not plain
 * ASCII, so browsers save non-Latin names correctly.
 */
export type Disposition = "inline" | "attachment";

// RFC 8187 attr-char: ALPHA / DIGIT / "!#$&+-.^_`|~"; encodeURIComponent leaves
// a few more (' ( ) *) unescaped, which are not allowed there.
function encodeRfc8187(value: string): string {
  return encodeURIComponent(value).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

export function contentDisposition(disposition: Disposition, filename?: string): string {
  if (!filename) return disposition;
  // Fallback name: printable ASCII only, without quote or backslash, which would need escaping
  // that some clients get wrong.
  const fallback = filename.replace(/[^\x20-\x7e]|["\\]/g, "_");
  if (fallback === filename) return `${disposition}; filename="${filename}"`;
  return `${disposition}; filename="${fallback}"; filename*=UTF-8''${encodeRfc8187(filename)}`;
}
