/**
 * What every admin command shares: its description, how it reports, and the two kinds of
 * failure the exit code tells apart (2: the command line was wrong, 1: the work failed).
 */
import { existsSync } from "node:fs";
import { parseArgs } from "node:util";
import { type Config, databaseConfig, hasSecretKey, loadConfig } from "../config";
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

/**
 * The server's configuration, read from the same environment as the server. Refused, because
 * they would quietly start a new installation instead: a SQLite file that is not there in
 * `existing` mode (a wrong DATA_DIR or working directory), and an existing database without
 * a secret key (the server's SECRET_KEY is missing here; a new key would make keys the
 * server rejects).
 */
export function serverConfig(env: CommandIo["env"], mode: "existing" | "create"): Config {
  const database = databaseConfig(env);
  const exists = database.dialect === "postgres" || existsSync(database.file);
  if (mode === "existing" && !exists) {
    throw new CommandError(
      `No ClipShare database at ${database.file}. Run the command with the server's DATA_DIR or ` +
        "DATABASE_URL, from the directory the server runs in.",
    );
  }
  if (exists && !hasSecretKey(env)) {
    throw new CommandError(
      "SECRET_KEY is not set and DATA_DIR holds no secret.key: run the command with the server's SECRET_KEY",
    );
  }
  return loadConfig(env);
}

export async function withDatabase<T>(config: Config, work: (db: Db) => Promise<T>): Promise<T> {
  const db = openDatabase(config.database);
  try {
    return await work(db);
  } finally {
    await db.destroy();
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
