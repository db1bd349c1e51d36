/**
 * Touch long-press and context-menu geometry: a press held 500 ms
 * without moving more than 10 px opens the menu; the menu is 100-600 px wide
 * and stays inside the viewport. Pure.
 */

export const LONG_PRESS_MS = 500;
export const LONG_PRESS_TOLERANCE_PX = 10;
export const MENU_MIN_WIDTH = 100;
export const MENU_MAX_WIDTH = 600;

export interface Point {
  x: number;
  y: number;
}

/** Whether the finger moved far enough to count as a scroll or drag, not a press. */
export function movedTooFar(start: Point, now: Point, tolerance = LONG_PRESS_TOLERANCE_PX): boolean {
  return Math.hypot(now.x - start.x, now.y - start.y) > tolerance;
}

/** Whether a press that started at `startedAt` and has not moved counts as long at `now`. */
export function isLongPress(startedAt: number, now: number, threshold = LONG_PRESS_MS): boolean {
  return now - startedAt >= threshold;
}

export function clampMenuWidth(width: number): number {
  if (!Number.isFinite(width)) return MENU_MIN_WIDTH;
  return Math.min(MENU_MAX_WIDTH, Math.max(MENU_MIN_WIDTH, Math.round(width)));
}

/**
 * Where a menu of the given size opens for a click at `at`: to the right and
 * below, flipped or pushed back when it would leave the viewport (8 px margin).
 */
export function placeMenu(
  at: Point,
  size: { width: number; height: number },
  viewport: { width: number; height: number },
  margin = 8,
): { left: number; top: number; width: number } {
  const width = Math.min(clampMenuWidth(size.width), Math.max(MENU_MIN_WIDTH, viewport.width - margin * 2));
  let left = at.x;
  if (left + width > viewport.width - margin) left = Math.max(margin, at.x - width);
  if (left + width > viewport.width - margin) left = Math.max(margin, viewport.width - margin - width);
  let top = at.y;
  if (top + size.height > viewport.height - margin) top = Math.max(margin, at.y - size.height);
  if (top + size.height > viewport.height - margin)
    top = Math.max(margin, viewport.height - margin - size.height);
  return { left, top, width };
}
