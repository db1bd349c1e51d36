// How a build's files split into the app shell and the pages. A Vite plugin writes the
// split next to index.html; the service worker precaches the shell (vite.config.ts) and
// caches a page's files when the page is first used (src/sw/sw.ts).
import { readFileSync } from "node:fs";
import { join } from "node:path";

const isLibrary = (id) => /[\\/]node_modules[\\/]/.test(id);

/**
 * Vite plugin writing `fileName`: `{ shell: [file], pages: { pageChunk: [file] } }`.
 *
 * The shell is what index.html loads, plus what the shell's own code loads on demand
 * (the texts of each language, the offline queue, the environment switcher), but not
 * the pages the module `routesModule` loads lazily.
 *
 * A page's files are what its chunk imports and what the app's own code in them loads
 * on demand (dialogs, the Markdown view, the editor), with their styles; libraries'
 * own lazy parts, and what the modules matching `usedOnDemand` load (the editor's
 * language modes, one per kind of fenced code), are left to be cached when used.
 */
export function pageAssetsPlugin({ fileName, routesModule, usedOnDemand = [] }) {
  return {
    name: "clipshare-page-assets",
    apply: "build",
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((item) => item.type === "chunk");
      const chunkOf = new Map();
      for (const chunk of chunks) for (const id of chunk.moduleIds) chunkOf.set(id, chunk);

      /** Chunks a chunk loads: its static imports, and what the app's code in it loads on demand. */
      const next = (chunk, { skipRoutes }) => {
        const found = chunk.imports.map((file) => bundle[file]);
        for (const [id, rendered] of Object.entries(chunk.modules)) {
          if (isLibrary(id) || rendered.renderedLength === 0) continue;
          if (usedOnDemand.some((pattern) => pattern.test(id))) continue;
          if (skipRoutes && id.endsWith(routesModule)) continue;
          for (const target of this.getModuleInfo(id)?.dynamicallyImportedIds ?? [])
            found.push(chunkOf.get(target));
        }
        return found.filter(Boolean);
      };
      const closure = (starts, options, stop = new Set()) => {
        const seen = new Set(starts);
        const stack = [...starts];
        while (stack.length > 0) {
          for (const chunk of next(stack.pop(), options)) {
            if (seen.has(chunk) || stop.has(chunk)) continue;
            seen.add(chunk);
            stack.push(chunk);
          }
        }
        return seen;
      };
      const filesOf = (found) =>
        [...found].flatMap((chunk) => [chunk.fileName, ...(chunk.viteMetadata?.importedCss ?? [])]);

      const shellChunks = closure(
        chunks.filter((chunk) => chunk.isEntry),
        { skipRoutes: true },
      );
      const pages = {};
      for (const start of chunks) {
        if (shellChunks.has(start)) continue;
        // The shell is loaded already; walking through it would reach every page.
        const files = new Set(filesOf(closure([start], { skipRoutes: false }, shellChunks)));
        files.delete(start.fileName);
        if (files.size > 0) pages[start.fileName] = [...files].sort();
      }
      const shell = [...new Set(filesOf(shellChunks))].sort();
      this.emitFile({ type: "asset", fileName, source: JSON.stringify({ shell, pages }) });
    },
  };
}

/** The split the plugin wrote into `dist`. */
export function readPageAssets(dist, fileName) {
  return JSON.parse(readFileSync(join(dist, fileName), "utf8"));
}

/** True for a precache entry (a path relative to dist) the service worker installs with. */
export function inShell(url, pageAssets) {
  return !url.startsWith("assets/") || pageAssets.shell.includes(url);
}
