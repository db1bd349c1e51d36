/** The parts of a click that decide who follows a link. */
export interface ClickLike {
  button: number;
  defaultPrevented: boolean;
  metaKey: boolean;
  altKey: boolean;
  ctrlKey: boolean;
  shiftKey: boolean;
}

/**
 * True when the app should open the link itself: a plain left click on a link for this
 * tab. Modifier clicks (new tab, new window, download) and other targets stay the browser's.
 */
export function isPlainClick(event: ClickLike, target: string | undefined): boolean {
  return (
    event.button === 0 &&
    !event.defaultPrevented &&
    (!target || target === "_self") &&
    !(event.metaKey || event.altKey || event.ctrlKey || event.shiftKey)
  );
}

const trimSlash = (path: string) => path.replace(/\/+$/, "").toLowerCase();

/**
 * A navigation link is active on its own page and, unless `end`, on the pages below it
 * (`/admin` on `/admin/settings`, never on `/administration`).
 */
export function isActivePath(pathname: string, to: string, end = false): boolean {
  const current = trimSlash(pathname);
  const target = trimSlash(to.split(/[?#]/)[0]!);
  return current === target || (!end && current.startsWith(`${target}/`));
}
