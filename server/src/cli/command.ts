/**
 * What every admin command shares: its description, how it reports, and the two kinds of
 * failure the exit code tells apart (2: the command line was wrong, 1: the work failed).
 */
import { existsSync } from "node:fs";
import { parseArgs } from "node:util";
import { type Config, databaseConfig, loadConfig } from "../config";
import { type Db, openDatabase } from "../db/database";

export interface CommandIo {
  env: Record<string, string | undefined>;
  /** Results for the user (stdout). */
  out(line: string): void;
  /** Progress and notes (stderr), so stdout can be piped. */
  note(line: string): void;
}

export interface Command {
  name: string;
  summary: string;
  /** Full help: synopsis, options, what it does. */
  help: string;
  run(args: string[], io: CommandIo): Promise<void>;
}

/** The command line is wrong: exit 2 with a pointer to the help. */
export class UsageError extends Error {
  override readonly name = "UsageError";
}

/** The command could not do its work: exit 1. */
export class CommandError extends Error {
  override readonly name = "CommandError";
}

export interface Store {
  config: Config;
  db: Db;
  close(): Promise<void>;
}

/**
 * The server's configuration and database, read from the same environment as the server.
 * `existing` refuses a SQLite file that is not there yet: a wrong DATA_DIR or working
 * directory should not quietly create an empty installation.
 */
export async function openStore(env: CommandIo["env"], mode: "existing" | "create"): Promise<Store> {
  const database = databaseConfig(env);
  if (mode === "existing" && database.dialect === "sqlite" && !existsSync(database.file)) {
    throw new CommandError(
      `No ClipShare database at ${database.file}. Run the command with the server's DATA_DIR or ` +
        "DATABASE_URL, from the directory the server runs in.",
    );
  }
  const config = loadConfig(env);
  const db = openDatabase(config.database);
  return { config, db, close: () => db.destroy() };
}

export async function withStore<T>(
  env: CommandIo["env"],
  mode: "existing" | "create",
  work: (store: Store) => Promise<T>,
): Promise<T> {
  const store = await openStore(env, mode);
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}

type OptionSpec = Record<string, { type: "string" | "boolean"; short?: string }>;

/** Strict parsing: unknown options and a wrong number of arguments are usage errors. */
export function parseOptions<O extends OptionSpec>(
  args: string[],
  options: O,
  positionals: { min: number; max: number; names: string },
) {
  let parsed: ReturnType<
    typeof parseArgs<{ args: string[]; options: O; allowPositionals: true; strict: true }>
  >;
  try {
    parsed = parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (e) {
    throw new UsageError((e as Error).message.replace(/\. To specify a positional argument.*$/s, ""));
  }
  const count = parsed.positionals.length;
  if (count < positionals.min) throw new UsageError(`Missing ${positionals.names}`);
  if (count > positionals.max)
    throw new UsageError(`Unexpected argument "${parsed.positionals[positionals.max]}"`);
  return parsed;
}
