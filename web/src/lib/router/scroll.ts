// Scroll positions of the history entries this tab has left, by entry key. Kept in
// sessionStorage when the page is hidden, so a reload or coming back from another
// site still finds them; only the newest entries are kept.
const STORAGE_KEY = "clipshare-scroll";
const KEEP = 100;

let positions: Record<string, number> | undefined;

function saved(): Record<string, number> {
  if (!positions) {
    try {
      positions = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? "{}") as Record<string, number>;
    } catch {
      positions = {};
    }
    window.addEventListener("pagehide", () => {
      try {
        sessionStorage.setItem(STORAGE_KEY, JSON.stringify(positions));
      } catch {
        // Storage full or blocked: positions are lost on reload, nothing else.
      }
    });
  }
  return positions;
}

export function rememberScroll(key: string | undefined): void {
  if (!key) return;
  const all = saved();
  delete all[key];
  all[key] = window.scrollY;
  const keys = Object.keys(all);
  if (keys.length > KEEP) delete all[keys[0]!];
}

const USER_SCROLL = ["wheel", "touchstart", "keydown"] as const;

/**
 * Scrolls back to `y`. The page may still be growing (its data loads after it is drawn),
 * so this tries again on each frame for a second, and gives up as soon as the user scrolls.
 */
function scrollBackTo(y: number): void {
  const until = performance.now() + 1000;
  let userScrolled = false;
  const stop = () => {
    userScrolled = true;
  };
  for (const type of USER_SCROLL) window.addEventListener(type, stop, { passive: true });
  const step = () => {
    window.scrollTo(0, y);
    if (!userScrolled && Math.abs(window.scrollY - y) > 1 && performance.now() < until) {
      requestAnimationFrame(step);
    } else {
      for (const type of USER_SCROLL) window.removeEventListener(type, stop);
    }
  };
  step();
}

/**
 * After moving to another page: back and forward return to where that entry was left;
 * a link or redirect shows the element the fragment names, else the top of the page.
 */
export function scrollAfterNavigation(key: string, backOrForward: boolean, hash: string): void {
  const y = backOrForward ? saved()[key] : undefined;
  const target = hash ? document.getElementById(hash.slice(1)) : null;
  if (y !== undefined) scrollBackTo(y);
  else if (target) target.scrollIntoView();
  else if (!backOrForward) window.scrollTo(0, 0);
}
