// The web app runs on Preact through preact/compat: every import of React (ours and the
// libraries') resolves to Preact, so no React code reaches the bundle. Shared by the Vite
// build and the unit-test runner so both render with the same library.
import { fileURLToPath } from "node:url";

export const preactAliases = [
  { find: /^react$/, replacement: fileURLToPath(new URL("../src/lib/react-on-preact.js", import.meta.url)) },
  { find: /^react-dom$/, replacement: "preact/compat" },
  { find: /^react-dom\/client$/, replacement: "preact/compat/client" },
  { find: /^react-dom\/server$/, replacement: "preact/compat/server" },
  { find: /^react-dom\/test-utils$/, replacement: "preact/test-utils" },
  { find: /^react\/jsx-runtime$/, replacement: "preact/compat/jsx-runtime" },
  { find: /^react\/jsx-dev-runtime$/, replacement: "preact/compat/jsx-dev-runtime" },
];
