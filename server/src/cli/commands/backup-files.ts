/**
 * Backup files on disk: written owner-only to a temporary name and renamed into place only
 * when complete (an interrupted backup never looks like a finished one), gzip when the name
 * ends in .gz, "-" for stdout/stdin.
 */
import { once } from "node:events";
import { createReadStream, createWriteStream } from "node:fs";
import { open, rename, rm } from "node:fs/promises";
import path from "node:path";
import { createInterface } from "node:readline";
import type { Readable, Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGunzip, createGzip } from "node:zlib";
import { randomToken } from "../../lib/crypto";
import { CommandError } from "../command";

const gzipped = (file: string) => file.toLowerCase().endsWith(".gz");

/** Runs `produce` with a line writer; the file appears under its name only if it succeeds. */
export async function writeBackupFile<T>(
  file: string,
  produce: (write: (line: string) => Promise<void>) => Promise<T>,
): Promise<T> {
  if (file === "-") return produce(lineWriter(process.stdout));
  const target = path.resolve(file);
  const temp = path.join(path.dirname(target), `.${path.basename(target)}.${randomToken(6)}.partial`);
  // Owner-only: a backup holds paste contents and password hashes.
  const out = createWriteStream(temp, { flags: "wx", mode: 0o600 });
  const sink = gzipped(file) ? createGzip() : null;
  const written = sink ? pipeline(sink, out) : once(out, "close");
  written.catch(() => undefined); // awaited below; a failure also surfaces through write
  try {
    const result = await produce(lineWriter(sink ?? out));
    (sink ?? out).end();
    await written;
    const handle = await open(temp, "r+");
    await handle.sync().finally(() => handle.close());
    await rename(temp, target);
    return result;
  } catch (e) {
    (sink ?? out).destroy();
    await rm(temp, { force: true });
    if ((e as NodeJS.ErrnoException).code && (e as NodeJS.ErrnoException).syscall) {
      throw new CommandError(`Cannot write ${target}: ${(e as Error).message}`);
    }
    throw e;
  }
}

function lineWriter(stream: Writable): (line: string) => Promise<void> {
  let failure: Error | null = null;
  stream.on("error", (e) => {
    failure = e;
  });
  return async (line) => {
    if (failure) throw failure;
    if (!stream.write(`${line}\n`)) await once(stream, "drain");
  };
}

/** The lines of a backup file, decompressed when it ends in .gz; checked to exist first. */
export async function openBackupLines(file: string): Promise<AsyncIterable<string>> {
  if (file === "-") return readLines(process.stdin, "stdin");
  const target = path.resolve(file);
  try {
    await (await open(target, "r")).close();
  } catch (e) {
    throw new CommandError(`Cannot read ${target}: ${(e as Error).message}`);
  }
  const raw = createReadStream(target);
  if (!gzipped(file)) return readLines(raw, target);
  const gunzip = createGunzip();
  raw.once("error", (e) => gunzip.destroy(e));
  return readLines(raw.pipe(gunzip), target);
}

async function* readLines(input: Readable, name: string): AsyncIterable<string> {
  try {
    yield* createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
  } catch (e) {
    // A damaged gzip stream or a read error: nothing of it was committed.
    throw new CommandError(`Cannot read ${name}: ${(e as Error).message}`);
  }
}
