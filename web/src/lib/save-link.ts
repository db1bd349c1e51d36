/**
 * Has the browser save what `href` points to as `fileName`, as if the user
 * had clicked a download link (signed URLs, object URLs).
 */
export function saveLink(href: string, fileName: string): void {
  const a = document.createElement("a");
  a.href = href;
  a.download = fileName;
  a.rel = "noopener";
  document.body.append(a);
  a.click();
  a.remove();
}
