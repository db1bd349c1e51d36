export interface PageAssets {
  /** Files of the app shell under assets/. */
  shell: string[];
  /** For each page chunk, the files that page loads later. */
  pages: Record<string, string[]>;
}
export function pageAssetsPlugin(options: {
  fileName: string;
  routesModule: string;
  /** Modules whose lazy loads are cached when used, not with their page. */
  usedOnDemand?: RegExp[];
}): import("vite").Plugin;
export function readPageAssets(dist: string, fileName: string): PageAssets;
export function inShell(url: string, pageAssets: PageAssets): boolean;
