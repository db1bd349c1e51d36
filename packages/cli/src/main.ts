/**
 * `clipshare`: ClipShare from the shell. Parses the command line, runs one
 * command, prints its result (text, or JSON with --json) and exits with a
 * code from client.ts's EXIT table.
 */
import { readFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { APP_VERSION, parseMaxViews, shareOptionProblems, shareOptionProblemText } from "@clipshare/shared";
import { CliError, Client, EXIT, loadConfig, saveConfig, usageError } from "./client";
import { createCollection } from "./collections";
import { fsGet, fsList, fsPut } from "./fs";
import { formatBytes, type Progress, silentProgress, terminalProgress } from "./progress";
import { createRequest, listRequests, setRequestStatus } from "./requests";
import { createPaste, getShare, listOwn, removeShares } from "./shares";
import { uploadFile } from "./upload";

const USAGE = `Usage: clipshare <command> [options]

Commands:
  paste [file]              Paste a file's text, or stdin; prints the link
  upload <files...>         Share files (large ones in resumable parts); prints the links
  share --collection <files...>
                            Upload files and share them all under one link (a collection);
                            with --paths, the arguments are mount paths (files or folders)
  get <link|slug>           A paste to stdout, a file to disk (-o path, "-" for stdout)
  ls                        Your pastes and files
  rm <link|slug...>         Delete your shares
  fs ls [path]              List a mount directory
  fs get <path> [-o dest]   Download a file from a mount
  fs put <file> <path>      Upload to a mount (a path ending in / keeps the file name)
  request create <title>    A file request: a link others upload files to you through
  request ls                Your file requests
  request close <id|link>   Stop a request taking files (request open reopens it)
  login                     Check --url and --api-key and save them to the config file

Options:
  --url URL                 Server (env CLIPSHARE_URL)
  --api-key KEY             API key (env CLIPSHARE_API_KEY)
  --password PW             Share password (set on create, used on get)
  --expires DURATION        Expiry: 30m, 12h, 7d or never
  --max-views N             Views before the share is gone
  --slug SLUG               Custom link suffix
  --remark TEXT             Remark shown to visitors
  --title TEXT              Collection: the title visitors see
  --storage ID              Storage config for uploads (default: the server's default)
  --message TEXT            Request: the text uploaders see
  --folder PATH             Request: files go to this mount folder instead of file shares
  --max-files N             Request: most files it takes
  --max-file-mb N           Request: most MB per file
  --types LIST              Request: allowed types, e.g. .pdf,image/*
  --show-received           Request: uploaders see what already arrived
  -o, --output PATH         Where get writes a file
  --force                   Overwrite an existing local file
  --parallel N              Parts in flight for large uploads (default 3)
  --json                    Machine-readable output
  -h, --help, --version

Exit codes: 0 ok, 1 usage, 2 authentication or permission, 3 not found or gone,
4 server or network failure, 5 refused by the server (invalid, conflict, too large).`;

const OPTIONS = {
  url: { type: "string" },
  "api-key": { type: "string" },
  password: { type: "string" },
  expires: { type: "string" },
  "max-views": { type: "string" },
  slug: { type: "string" },
  remark: { type: "string" },
  title: { type: "string" },
  collection: { type: "boolean" },
  paths: { type: "boolean" },
  storage: { type: "string" },
  message: { type: "string" },
  folder: { type: "string" },
  "max-files": { type: "string" },
  "max-file-mb": { type: "string" },
  types: { type: "string" },
  "show-received": { type: "boolean" },
  output: { type: "string", short: "o" },
  force: { type: "boolean" },
  parallel: { type: "string" },
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
  version: { type: "boolean" },
} as const;

type Flags = ReturnType<typeof parse>["values"];

function parse(argv: string[]) {
  try {
    return parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (e) {
    throw usageError((e as Error).message);
  }
}

const UNIT_MS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** "30m", "12h", "7d", "2w" or "never" → milliseconds (null = never). */
export function parseDuration(text: string): number | null {
  if (text === "never") return null;
  const match = text.match(/^(\d+)([mhdw])$/);
  if (!match || Number(match[1]) <= 0)
    throw usageError(`Invalid --expires: ${text} (use 30m, 12h, 7d or never)`);
  return Number(match[1]) * UNIT_MS[match[2]!]!;
}

function positiveInt(name: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text) || Number(text) < 1) throw usageError(`--${name} must be a positive whole number`);
  return Number(text);
}

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY)
    throw usageError("Nothing to paste: give a file or pipe text into clipshare paste");
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * The share flags (--remark, --slug, --password, --max-views), checked by the
 * share-option rules the server and the web forms apply, with the server's texts.
 */
function shareOptions(flags: Flags) {
  const typed = {
    remark: flags.remark,
    slug: flags.slug,
    password: flags.password,
    max_views: flags["max-views"],
  };
  for (const [field, problem] of Object.entries(shareOptionProblems(typed))) {
    if (!problem) continue;
    const flag = field === "max_views" ? "max-views" : field;
    throw usageError(`--${flag}: ${shareOptionProblemText(field as keyof typeof typed, typed)}`);
  }
  const expiresMs = flags.expires === undefined ? null : parseDuration(flags.expires);
  return {
    password: flags.password,
    max_views: typed.max_views === undefined ? undefined : parseMaxViews(typed.max_views) || undefined,
    slug: flags.slug,
    remark: flags.remark,
    s3_config_id: flags.storage,
    // File shares count expiry in whole hours.
    expires_in: expiresMs === null ? undefined : Math.max(1, Math.ceil(expiresMs / UNIT_MS.h!)),
    expiresMs,
  };
}

function progressFor(flags: Flags): Progress {
  return !flags.json && process.stderr.isTTY ? terminalProgress() : silentProgress;
}

async function run(argv: string[]): Promise<unknown> {
  const { values: flags, positionals } = parse(argv);
  const [command, ...args] = positionals;
  if (flags.version) return print(flags, { version: APP_VERSION }, APP_VERSION);
  if (flags.help || !command) {
    process.stdout.write(`${USAGE}\n`);
    if (!command && !flags.help) throw usageError("No command given");
    return;
  }
  const client = new Client(await loadConfig(flags));
  switch (command) {
    case "paste": {
      if (args.length > 1) throw usageError("paste takes at most one file");
      const content = args[0] ? await readFile(args[0], "utf8") : await readStdin();
      if (flags.storage) throw usageError("--storage is for uploads; pastes live in the database");
      const { password, max_views, slug, remark, expiresMs } = shareOptions(flags);
      const expires_at = expiresMs === null ? undefined : new Date(Date.now() + expiresMs).toISOString();
      const paste = await createPaste(client, content, { password, max_views, slug, remark, expires_at });
      return print(flags, paste, paste.url);
    }
    case "upload": {
      if (args.length === 0) throw usageError("upload needs at least one file");
      if (flags.slug && args.length > 1) throw usageError("--slug names one share: upload one file with it");
      const { expiresMs: _, ...options } = shareOptions(flags);
      const concurrency = positiveInt("parallel", flags.parallel);
      const results = [];
      for (const file of args) {
        results.push(await uploadFile(client, file, { ...options, concurrency }, progressFor(flags)));
      }
      return print(flags, results.length === 1 ? results[0] : results, results.map((r) => r.url).join("\n"));
    }
    case "share": {
      if (!flags.collection) throw usageError("share takes --collection (one file: use upload)");
      if (args.length === 0) throw usageError("share --collection needs at least one file");
      const { password, max_views, slug, remark, expires_in } = shareOptions(flags);
      const collection = { title: flags.title, password, max_views, slug, remark, expires_in };
      if (flags.paths) {
        const made = await createCollection(
          client,
          args.map((path) => ({ path })),
          collection,
        );
        return print(flags, made, made.url);
      }
      // The files get no options of their own: the collection's link carries them.
      const concurrency = positiveInt("parallel", flags.parallel);
      const uploaded = [];
      for (const file of args)
        uploaded.push(
          await uploadFile(client, file, { s3_config_id: flags.storage, concurrency }, progressFor(flags)),
        );
      const made = await createCollection(
        client,
        uploaded.map((u) => ({ file_id: u.slug })),
        collection,
      );
      return print(flags, { ...made, files: uploaded }, made.url);
    }
    case "get": {
      if (args.length !== 1) throw usageError("get takes one link or slug");
      const result = await getShare(client, args[0]!, flags);
      if (flags.json) return print(flags, result, "");
      if (result.kind === "file" && result.saved_to !== "-")
        process.stderr.write(`Saved ${result.saved_to} (${formatBytes(result.size)})\n`);
      return;
    }
    case "ls": {
      const shares = await listOwn(client);
      const text = shares
        .map((s) =>
          [
            s.kind,
            s.slug,
            s.size === null ? "-" : formatBytes(s.size),
            `${s.views}${s.max_views ? `/${s.max_views}` : ""} views`,
            s.expires_at ?? "never",
            s.name,
          ].join("\t"),
        )
        .join("\n");
      return print(flags, shares, text);
    }
    case "rm": {
      if (args.length === 0) throw usageError("rm needs at least one link or slug");
      const removed = await removeShares(client, args);
      return print(flags, removed, removed.map((r) => `Deleted ${r.kind} ${r.slug}`).join("\n"));
    }
    case "fs":
      return runFs(client, flags, args);
    case "request":
      return runRequest(client, flags, args);
    case "login": {
      if (!client.config.apiKey) throw usageError("login needs --api-key (or CLIPSHARE_API_KEY)");
      const who = await client.call<{ name: string }>("/test/api-key");
      const file = await saveConfig(client.config);
      return print(
        flags,
        { name: who.name, url: client.config.url, config: file },
        `Signed in as ${who.name}; saved to ${file}`,
      );
    }
    default:
      throw usageError(`Unknown command: ${command}`);
  }
}

async function runRequest(client: Client, flags: Flags, args: string[]) {
  const [sub, ...rest] = args;
  switch (sub) {
    case "create": {
      if (rest.length !== 1) throw usageError("request create takes one title (quote it)");
      const { expires_in, password } = shareOptions(flags);
      const maxMb = positiveInt("max-file-mb", flags["max-file-mb"]);
      const request = await createRequest(client, rest[0]!, {
        message: flags.message,
        folder: flags.folder,
        storage: flags.storage,
        max_files: positiveInt("max-files", flags["max-files"]),
        max_file_bytes: maxMb === undefined ? undefined : maxMb * 1024 * 1024,
        allowed_types: flags.types
          ?.split(",")
          .map((s) => s.trim())
          .filter(Boolean),
        expires_in,
        password,
        show_received: flags["show-received"],
      });
      return print(flags, request, request.url);
    }
    case "ls": {
      const requests = await listRequests(client);
      const text = requests
        .map((r) =>
          [
            r.slug,
            r.state,
            `${r.reserved_files}${r.max_files ? `/${r.max_files}` : ""} files`,
            r.expires_at ?? "never",
            r.title,
            r.url,
          ].join("\t"),
        )
        .join("\n");
      return print(flags, requests, text);
    }
    case "close":
    case "open": {
      if (rest.length !== 1) throw usageError(`request ${sub} takes one request id, slug or link`);
      const request = await setRequestStatus(client, rest[0]!, sub === "close" ? "closed" : "open");
      return print(flags, request, `${sub === "close" ? "Closed" : "Reopened"} ${request.url}`);
    }
    default:
      throw usageError("request takes create, ls, close or open");
  }
}

async function runFs(client: Client, flags: Flags, args: string[]) {
  const [sub, ...rest] = args;
  switch (sub) {
    case "ls": {
      const entries = await fsList(client, rest[0] ?? "/");
      const text = entries
        .map((e) =>
          [
            e.type === "directory" ? "d" : "-",
            e.size === null ? "-" : formatBytes(e.size),
            e.modified ?? "-",
            e.name,
          ].join("\t"),
        )
        .join("\n");
      return print(flags, entries, text);
    }
    case "get": {
      if (rest.length < 1 || rest.length > 2)
        throw usageError("fs get takes a mount path and an optional destination");
      const result = await fsGet(client, rest[0]!, flags.output ?? rest[1], flags.force);
      return print(flags, result, result.saved_to === "-" ? "" : `Saved ${result.saved_to}`);
    }
    case "put": {
      if (rest.length !== 2) throw usageError("fs put takes a local file and a mount path");
      const result = await fsPut(client, rest[0]!, rest[1]!, progressFor(flags));
      return print(flags, result, `Uploaded ${result.path}`);
    }
    default:
      throw usageError("fs needs ls, get or put");
  }
}

function print(flags: Flags, value: unknown, text: string) {
  if (flags.json) process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
  else if (text) process.stdout.write(`${text}\n`);
}

run(process.argv.slice(2)).then(
  () => {
    process.exitCode = EXIT.ok;
  },
  (e: unknown) => {
    const error = e instanceof CliError ? e : new CliError(String((e as Error)?.message ?? e), EXIT.server);
    if (process.argv.includes("--json")) {
      process.stderr.write(
        `${JSON.stringify({ error: error.error ?? "error", message: error.message, status: error.status, exit_code: error.exitCode })}\n`,
      );
    } else process.stderr.write(`clipshare: ${error.message}\n`);
    process.exitCode = error.exitCode;
  },
);
