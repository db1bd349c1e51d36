/**
 * `clipshare-server <command>`: administration on the server's own configuration (the same
 * environment variables, DATA_DIR and DATABASE_URL), safe to run while the server runs.
 * Exit codes: 0 done, 1 the command failed, 2 the command line is wrong.
 */
import { ZodError } from "zod";
import { ConfigError } from "../config";
import { BackupError } from "../db/backup/dump";
import { isAppError } from "../errors";
import { type Command, CommandError, type CommandIo, UsageError } from "./command";
import { backup, restore } from "./commands/backup";
import { createApiKey } from "./commands/create-api-key";
import { resetAdminPassword } from "./commands/reset-admin-password";

const COMMANDS: Command[] = [resetAdminPassword, createApiKey, backup, restore];

const OVERVIEW = `Usage: clipshare-server <command> [options]   (from the repository: npm run admin -- <command>)

Commands:
${COMMANDS.map((c) => `  ${c.name.padEnd(22)}${c.summary}`).join("\n")}
  ${"help [command]".padEnd(22)}show this help, or a command's

Uses the server's configuration: run it with the same environment (DATA_DIR, DATABASE_URL,
SECRET_KEY) and from the same directory as the server.`;

async function runCli(argv: string[], io: CommandIo): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined) {
    io.note(OVERVIEW);
    return 2;
  }
  if (name === "help" || name === "--help" || name === "-h") {
    const topic = args[0];
    if (topic === undefined) {
      io.out(OVERVIEW);
      return 0;
    }
    const command = COMMANDS.find((c) => c.name === topic);
    if (!command) return usageFailure(io, `Unknown command "${topic}"`);
    io.out(command.help);
    return 0;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) return usageFailure(io, `Unknown command "${name}"`);
  if (args.includes("--help") || args.includes("-h")) {
    io.out(command.help);
    return 0;
  }
  try {
    await command.run(args, io);
    return 0;
  } catch (e) {
    if (e instanceof UsageError) return usageFailure(io, e.message, command);
    io.note(`Error: ${failureMessage(e)}`);
    return 1;
  }
}

function usageFailure(io: CommandIo, message: string, command?: Command): number {
  io.note(`Error: ${message}`);
  io.note(`Run "clipshare-server help${command ? ` ${command.name}` : ""}" for usage.`);
  return 2;
}

function failureMessage(e: unknown): string {
  if (e instanceof ZodError) return e.issues.map((i) => i.message).join("; ");
  if (isAppError(e)) return `${e.message} (${e.error})`;
  if (e instanceof ConfigError) return `configuration: ${e.message}`;
  if (e instanceof CommandError || e instanceof BackupError) return e.message;
  return e instanceof Error ? e.message : String(e);
}

const io: CommandIo = {
  env: process.env,
  out: (line) => process.stdout.write(`${line}\n`),
  note: (line) => process.stderr.write(`${line}\n`),
};

// Everything written (backups above all) is owner-only, as the server's own files are.
process.umask(0o077);
runCli(process.argv.slice(2), io).then(
  (code) => {
    process.exitCode = code;
  },
  (e) => {
    io.note(`Error: ${failureMessage(e)}`);
    process.exitCode = 1;
  },
);
