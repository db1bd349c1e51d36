/** `clipshare fs ls|get|put`: files on the server's mounts, within the key's base path. */
import { createReadStream, createWriteStream } from "node:fs";
import { stat } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import { CliError, type Client, EXIT, failOnError } from "./client";
import type { Progress } from "./progress";
import { downloadTarget } from "./shares";

export interface FsEntry {
  name: string;
  path: string;
  isDirectory: boolean;
  size?: number;
  modified?: string;
}

export async function fsList(client: Client, dir: string) {
  client.requireKey();
  const data = await client.call<{ items: FsEntry[] }>(`/fs/list?path=${encodeURIComponent(dir)}`);
  return data.items.map((item) => ({
    name: item.name,
    path: item.path,
    type: item.isDirectory ? ("directory" as const) : ("file" as const),
    size: item.isDirectory ? null : (item.size ?? null),
    modified: item.modified ?? null,
  }));
}

export async function fsGet(client: Client, remote: string, output: string | undefined, force?: boolean) {
  client.requireKey();
  if (remote.endsWith("/")) throw new CliError(`${remote} is a directory; name a file`, EXIT.usage);
  const response = await client.fetch(`/api/fs/download?path=${encodeURIComponent(remote)}`);
  await failOnError(response);
  const target = await downloadTarget(output, path.posix.basename(remote), force);
  const body = Readable.fromWeb(response.body as WebReadableStream<Uint8Array>);
  await pipeline(body, target === "-" ? process.stdout : createWriteStream(target));
  return { path: remote, saved_to: target, size: Number(response.headers.get("content-length") ?? 0) };
}

/** Streams a local file to a mount; a remote path ending in "/" is a directory that keeps the local name. */
export async function fsPut(client: Client, local: string, remote: string, progress: Progress) {
  client.requireKey();
  const info = await stat(local).catch(() => null);
  if (!info?.isFile()) throw new CliError(`Not a file: ${local}`, EXIT.usage);
  const target = remote.endsWith("/") ? `${remote}${path.basename(local)}` : remote;
  progress.start(path.basename(local), info.size);
  async function* counted() {
    for await (const chunk of createReadStream(local)) {
      progress.add((chunk as Buffer).length);
      yield chunk as Buffer;
    }
  }
  await client.call(`/fs/upload?path=${encodeURIComponent(target)}`, {
    method: "PUT",
    body: counted(),
    headers: { "Content-Length": String(info.size), "Content-Type": "application/octet-stream" },
  });
  progress.done();
  return { path: target, size: info.size };
}
