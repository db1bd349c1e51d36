import type { Browser, BrowserContextOptions, Page } from "@playwright/test";

export const PAGE_BUDGETS_KB: { paste: number; home: number; homeSignedIn: number };
export const PAGE_CEILINGS_KB: { paste: number; home: number; homeSignedIn: number };
export const WORKER_FIRST_VISIT_KB: number;
export interface PageWeight {
  files: { file: string; bytes: number }[];
  total: number;
}
export function measurePage(
  browser: Browser,
  baseUrl: string,
  path: string,
  ready: (page: Page) => Promise<unknown>,
  contextOptions?: BrowserContextOptions,
): Promise<PageWeight>;
export function measurePrecache(
  browser: Browser,
  baseUrl: string,
  path?: string,
): Promise<{ files: { url: string; bytes: number }[]; total: number }>;
export function kb(bytes: number): string;
