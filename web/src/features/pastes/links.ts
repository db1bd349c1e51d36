/** The page link of a paste on this site (what people share), not the API's. */
export function pasteLink(slug: string, origin = window.location.origin): string {
  return `${origin}/paste/${encodeURIComponent(slug)}`;
}
