/**
 * The file basket: files gathered from any folder, downloaded as one ZIP.
 * Above BASKET_WARN_BYTES (1 GiB) or BASKET_WARN_FILES (500 files) the basket
 * shows a warning: the ZIP is built on the fly and a long download is lost if
 * the connection drops. Pure.
 */

export const BASKET_WARN_BYTES = 1024 ** 3;
export const BASKET_WARN_FILES = 500;

export interface BasketItem {
  path: string;
  name: string;
  size: number;
}

export function addToBasket(items: readonly BasketItem[], added: readonly BasketItem[]): BasketItem[] {
  const seen = new Set(items.map((i) => i.path));
  const next = [...items];
  for (const item of added) {
    if (seen.has(item.path)) continue;
    seen.add(item.path);
    next.push(item);
  }
  return next;
}

export function removeFromBasket(items: readonly BasketItem[], paths: readonly string[]): BasketItem[] {
  const drop = new Set(paths);
  return items.filter((i) => !drop.has(i.path));
}

export interface BasketTotals {
  count: number;
  bytes: number;
  warn: boolean;
}

export function basketTotals(items: readonly BasketItem[]): BasketTotals {
  const bytes = items.reduce((sum, i) => sum + (Number.isFinite(i.size) && i.size > 0 ? i.size : 0), 0);
  return { count: items.length, bytes, warn: bytes > BASKET_WARN_BYTES || items.length > BASKET_WARN_FILES };
}

/** A ZIP name for the download: "basket-YYYYMMDD-HHmm.zip". */
export function basketZipName(now: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `basket-${now.getFullYear()}${pad(now.getMonth() + 1)}${pad(now.getDate())}-${pad(now.getHours())}${pad(now.getMinutes())}.zip`;
}
