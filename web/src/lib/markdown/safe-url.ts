/**
 * Which URLs rendered Markdown may keep. DOMPurify already drops script URLs;
 * these allowlists are a second, stricter line: links may only go to the web,
 * to mail or within the site, images only to the web or to inline raster data.
 * Attribute values reach these checks entity-decoded (they are read from the DOM).
 */

const LINK_SCHEMES = new Set(["http:", "https:", "mailto:"]);
const IMAGE_SCHEMES = new Set(["http:", "https:"]);
const INLINE_IMAGE = /^data:image\/(?:png|gif|jpeg|webp|avif);base64,[a-z0-9+/=\s]+$/i;

/** Browsers ignore ASCII control characters and whitespace inside a scheme ("java\tscript:"). */
function compact(url: string): string {
  let out = "";
  for (const ch of url) {
    const code = ch.charCodeAt(0);
    if (code > 0x20 && code !== 0x7f) out += ch;
  }
  return out;
}

/**
 * The scheme as a browser reads it, lower-case with its colon; null when there
 * is none (a path, query, fragment or "//host" reference on the page's own scheme).
 */
export function schemeOf(url: string): string | null {
  const match = /^([a-z][a-z0-9+.-]*):/i.exec(compact(url));
  return match ? `${match[1]!.toLowerCase()}:` : null;
}

export function isSafeLinkHref(url: string): boolean {
  const scheme = schemeOf(url);
  return scheme === null || LINK_SCHEMES.has(scheme);
}

export function isSafeImageSrc(url: string): boolean {
  const scheme = schemeOf(url);
  if (scheme === null || IMAGE_SCHEMES.has(scheme)) return true;
  return INLINE_IMAGE.test(url.trim());
}

/** Links that leave the site open in a new tab without handing over the opener. */
export function isExternalHref(url: string): boolean {
  const scheme = schemeOf(url);
  if (scheme === "http:" || scheme === "https:") return true;
  const c = compact(url);
  return scheme === null && (c.startsWith("//") || c.startsWith("/\\") || c.startsWith("\\"));
}
