import { defineConfig } from "vitest/config";

// One runner for every package. Server tests pick their database and storage
// from the environment (see server/test/support/env.ts); by default SQLite + LOCAL.
export default defineConfig({
  test: {
    include: [
      "packages/*/src/**/*.test.ts",
      "server/src/**/*.test.ts",
      "server/test/**/*.test.ts",
      "web/src/**/*.test.ts",
      "scripts/**/*.test.ts",
    ],
    exclude: ["**/node_modules/**", "**/dist/**", "web/e2e/**"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
  },
});
