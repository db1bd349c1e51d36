import { resolve } from "node:path";
import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";
import { VitePWA } from "vite-plugin-pwa";
import { inShell, pageAssetsPlugin, readPageAssets } from "./scripts/app-shell.mjs";
import { PAGE_ASSETS_FILE, SHARE_TARGET_PATH } from "./src/lib/offline/sw-protocol";

// The dev server forwards API calls and the runtime config to a local ClipShare server.
const devBackend = process.env.CLIPSHARE_DEV_BACKEND ?? "http://127.0.0.1:8787";

export default defineConfig({
  plugins: [
    // React's JSX runtime, and fast refresh in the dev server.
    react(),
    tailwindcss(),
    pageAssetsPlugin({
      fileName: PAGE_ASSETS_FILE,
      routesModule: "src/app/router.tsx",
      usedOnDemand: [/[\\/]code-editor[\\/]fence-languages\.ts$/],
    }),
    VitePWA({
      registerType: "prompt",
      injectRegister: false,
      // Our own worker (src/sw/sw.ts): the precache manifest is injected into it.
      strategies: "injectManifest",
      srcDir: "src/sw",
      filename: "sw.ts",
      includeAssets: ["favicon.svg", "apple-touch-icon.png", "offline.html", "offline.js"],
      manifest: {
        id: "/",
        name: "ClipShare",
        short_name: "ClipShare",
        description: "Self-hosted online clipboard and file sharing",
        lang: "en",
        start_url: "/",
        scope: "/",
        display: "standalone",
        background_color: "#f8fafc",
        theme_color: "#4f46e5",
        icons: [
          { src: "/pwa-192x192.png", sizes: "192x192", type: "image/png" },
          { src: "/pwa-512x512.png", sizes: "512x512", type: "image/png" },
          { src: "/maskable-512x512.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
        ],
        // The installed app appears in the share sheet: text and links open the Home editor,
        // files open /upload with them queued (see src/lib/offline/share-target.ts).
        share_target: {
          action: SHARE_TARGET_PATH,
          method: "POST",
          enctype: "multipart/form-data",
          params: { title: "title", text: "text", url: "url", files: [{ name: "files", accept: ["*/*"] }] },
        },
      },
      injectManifest: {
        globPatterns: ["**/*.{js,css,html,svg,png,webmanifest}", PAGE_ASSETS_FILE],
        // Precache the app shell only (index.html, the entry and what it loads, its styles,
        // the locales, the offline queue, icons, offline page); a page's files are cached by
        // the worker when the page is first used, so a first visit does not fetch every page.
        manifestTransforms: [
          async (entries) => {
            const split = readPageAssets(resolve(import.meta.dirname, "dist"), PAGE_ASSETS_FILE);
            return { manifest: entries.filter((entry) => inShell(entry.url, split)) };
          },
        ],
      },
    }),
  ],
  build: {
    outDir: "dist",
    emptyOutDir: true,
    target: "es2022",
    // SOURCEMAP=1 writes source maps, to see which modules make a chunk heavy.
    sourcemap: process.env.SOURCEMAP === "1",
    // Read by scripts/report-bundle.mjs to find the locale chunks.
    manifest: true,
    rollupOptions: {
      // Needed to inline common chunks: the entry's exports are nobody's API.
      preserveEntrySignatures: false,
      treeshake: {
        // The shared package only declares constants, helpers and zod schemas: a module of it
        // whose exports go unused can be dropped (keeps zod out of the initial bundle).
        moduleSideEffects: (id: string) => !/[\\/]packages[\\/]shared[\\/]src[\\/]/.test(id),
      },
      output: {
        // Fewer, larger files for what every page loads together: each response costs its
        // headers too (about 0.7 KB here), which outweighs many of the small chunks.
        codeSplitting: {
          // Small common chunks (icons, helpers some pages share) are copied into each chunk
          // that uses them; rolldown's runtime keeps one instance of each module. Styles stay files.
          experimentalInlineCommonChunks: {
            maxSize: 16384,
            exclude: /\.(css|scss|sass|less|styl|stylus|pcss|postcss|sss)(\?|$)/,
          },
          groups: [
            // Data pages' common start: TanStack Query with the app's client and layout around it.
            {
              name: "query",
              test: /[\\/]node_modules[\\/]@tanstack[\\/](query-core|react-query)[\\/]|[\\/]src[\\/](lib[\\/]query-client|app[\\/]layout[\\/]data-layout)\./,
            },
            // The service worker's registration, loaded after the first render: one file, not two.
            { name: "pwa-register", test: /workbox-window|pwa-register/ },
          ],
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: {
      "/api": { target: devBackend, changeOrigin: true },
      "/config.js": { target: devBackend, changeOrigin: true },
    },
  },
});
