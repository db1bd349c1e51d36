/**
 * `clipshare-server` (server/src/cli/main.ts under tsx) as a real child process, the way an
 * operator runs it: its own process, the environment it is given, its exit code and output.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import type { TestApp } from "./test-app";

const REPO_ROOT = path.resolve(import.meta.dirname, "../../..");

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runCli(args: string[], env: Record<string, string>): Promise<CliResult> {
  const child = spawn(process.execPath, ["--import", "tsx", "server/src/cli/main.ts", ...args], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => {
    stdout += String(d);
  });
  child.stderr.on("data", (d) => {
    stderr += String(d);
  });
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** The environment a server built by createTestApp runs with: its DATA_DIR and database. */
export function serverEnv(t: TestApp): Record<string, string> {
  const db = t.config.database;
  return { DATA_DIR: t.dataDir, ...(db.dialect === "postgres" ? { DATABASE_URL: db.url } : {}) };
}
