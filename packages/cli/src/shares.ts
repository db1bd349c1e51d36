/** Pastes and file shares: create a paste, read any share by its link, list and delete one's own. */
import { createWriteStream } from "node:fs";
import { access, stat } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import type { CreatedPaste, PasteVisit } from "@clipshare/shared";
import { CliError, Client, EXIT, failOnError } from "./client";
import { askPassword } from "./prompt";

export interface PasteOptions {
  password?: string | undefined;
  expires_at?: string | undefined;
  max_views?: number | undefined;
  slug?: string | undefined;
  remark?: string | undefined;
}

export async function createPaste(client: Client, content: string, options: PasteOptions) {
  client.requireKey();
  if (!content.trim()) throw new CliError("Nothing to paste: the input is empty", EXIT.usage);
  const data = await client.call<CreatedPaste>("/paste", { json: { content, ...options } });
  return {
    slug: data.slug,
    url: client.resolve(`/paste/${encodeURIComponent(data.slug)}`),
    expires_at: data.expires_at ?? null,
    max_views: data.max_views ?? null,
  };
}

export type ShareKind = "paste" | "file";

/** A share named by its link (…/paste/<slug>, …/file/<slug>) or by its bare slug. */
export interface ShareRef {
  kind: ShareKind | null;
  slug: string;
  /** The server named by a full link, when it is one. */
  origin: string | null;
}

export function parseShareRef(input: string): ShareRef {
  if (/^https?:\/\//i.test(input)) {
    const url = new URL(input);
    const match = url.pathname.match(/\/(paste|file)\/([^/]+)\/?$/);
    if (!match) throw new CliError(`Not a share link: ${input}`, EXIT.usage);
    return { kind: match[1] as ShareKind, slug: decodeURIComponent(match[2]!), origin: url.origin };
  }
  const match = input.match(/^\/?(?:(paste|file)\/)?([A-Za-z0-9_-]+)$/);
  if (!match) throw new CliError(`Not a share link or slug: ${input}`, EXIT.usage);
  return { kind: (match[1] as ShareKind | undefined) ?? null, slug: match[2]!, origin: null };
}

interface GetOptions {
  password?: string | undefined;
  /** Where a file goes: a path, a directory, or "-" for stdout. */
  output?: string | undefined;
  force?: boolean | undefined;
}

/** Reads a share: a paste's text to stdout, a file to disk. */
export async function getShare(base: Client, input: string, options: GetOptions) {
  const ref = parseShareRef(input);
  const client = ref.origin ? new Client({ ...base.config, url: ref.origin }) : base;
  if (ref.kind !== "file") {
    try {
      return await getPaste(client, ref.slug, options);
    } catch (e) {
      // A bare slug that names no paste may name a file.
      if (ref.kind === "paste" || !(e instanceof CliError) || e.error !== "paste_not_found") throw e;
    }
  }
  return getFile(client, ref.slug, options);
}

async function getPaste(client: Client, slug: string, options: GetOptions) {
  const path = `/paste/${encodeURIComponent(slug)}`;
  let paste = await client.call<PasteVisit>(path, { auth: false });
  if (paste.requires_password) {
    const password = options.password ?? (await askPassword());
    paste = await client.call(path, { json: { password }, auth: false });
  }
  const content = paste.content ?? "";
  if (options.output && options.output !== "-") {
    await refuseOverwrite(options.output, options.force);
    await pipeline(Readable.from([content]), createWriteStream(options.output));
  } else process.stdout.write(content);
  return {
    kind: "paste" as const,
    slug,
    bytes: Buffer.byteLength(content),
    last_view: paste.is_last_view === true,
  };
}

interface PublicFile {
  filename: string;
  size: number;
  requires_password?: boolean;
  downloadUrl?: string;
}

async function getFile(client: Client, slug: string, options: GetOptions) {
  const infoPath = `/public/files/${encodeURIComponent(slug)}`;
  let file = await client.call<PublicFile>(infoPath, { auth: false });
  if (file.requires_password) {
    const password = options.password ?? (await askPassword());
    file = await client.call<PublicFile>(`${infoPath}/verify`, { json: { password }, auth: false });
  }
  if (!file.downloadUrl) throw new CliError("The server gave no download link for this file", EXIT.server);
  const response = await client.fetch(file.downloadUrl, { auth: false });
  await failOnError(response);
  const target = await downloadTarget(options.output, file.filename, options.force);
  const body = Readable.fromWeb(response.body as WebReadableStream<Uint8Array>);
  await pipeline(body, target === "-" ? process.stdout : createWriteStream(target));
  return { kind: "file" as const, slug, filename: file.filename, size: file.size, saved_to: target };
}

/** The local path for a download; the server's file name is reduced to its last component. */
export async function downloadTarget(output: string | undefined, remoteName: string, force?: boolean) {
  if (output === "-") return "-";
  const safeName = path.basename(remoteName.replace(/\\/g, "/")) || "download";
  let target = output ?? safeName;
  if (output && (output.endsWith("/") || (await isDirectory(output)))) target = path.join(output, safeName);
  await refuseOverwrite(target, force);
  return target;
}

async function isDirectory(p: string) {
  return stat(p).then(
    (s) => s.isDirectory(),
    () => false,
  );
}

async function refuseOverwrite(target: string, force?: boolean) {
  if (force) return;
  const exists = await access(target).then(
    () => true,
    () => false,
  );
  if (exists) throw new CliError(`${target} exists; pass --force to overwrite it`, EXIT.refused);
}

export interface OwnShare {
  kind: ShareKind;
  id: string;
  slug: string;
  name: string;
  size: number | null;
  views: number;
  max_views: number | null;
  expires_at: string | null;
  url: string;
}

const PAGE = 200;

/** Every row of a paged list: pages are fetched until one comes back short. */
async function allPages<T>(page: (offset: number) => Promise<T[]>): Promise<T[]> {
  const rows: T[] = [];
  for (let offset = 0; ; offset += PAGE) {
    const batch = await page(offset);
    rows.push(...batch);
    if (batch.length < PAGE) return rows;
  }
}

/** The caller's pastes and files (what its key may list; a missing permission skips that kind). */
export async function listOwn(client: Client): Promise<OwnShare[]> {
  client.requireKey();
  const skipForbidden = <T>(e: unknown, empty: T): T => {
    if (e instanceof CliError && e.error === "permission_denied") return empty;
    throw e;
  };
  type Row = Record<string, unknown>;
  const none: Row[] = [];
  const [pastes, files] = await Promise.all([
    allPages((offset) => client.call<Row[]>(`/pastes?limit=${PAGE}&offset=${offset}`)).catch((e) =>
      skipForbidden(e, none),
    ),
    allPages((offset) =>
      client.call<{ files: Row[] }>(`/files?limit=${PAGE}&offset=${offset}`).then((d) => d.files),
    ).catch((e) => skipForbidden(e, none)),
  ]);
  const shares: OwnShare[] = [];
  for (const p of pastes) {
    const text = String(p.content ?? p.content_preview ?? "");
    shares.push({
      kind: "paste",
      id: String(p.id),
      slug: String(p.slug),
      name: String(p.remark || text.split("\n")[0]!.slice(0, 40)),
      size: Buffer.byteLength(text),
      views: Number(p.views ?? p.view_count ?? 0),
      max_views: (p.max_views as number | null) ?? null,
      expires_at: (p.expires_at as string | null) ?? null,
      url: client.resolve(`/paste/${encodeURIComponent(String(p.slug))}`),
    });
  }
  for (const f of files) {
    shares.push({
      kind: "file",
      id: String(f.id),
      slug: String(f.slug),
      name: String(f.filename),
      size: Number(f.size),
      views: Number(f.views ?? 0),
      max_views: (f.max_views as number | null) ?? null,
      expires_at: (f.expires_at as string | null) ?? null,
      url: client.resolve(`/file/${encodeURIComponent(String(f.slug))}`),
    });
  }
  return shares;
}

/** Deletes own shares named by link or slug; all are looked up first, so a typo deletes nothing. */
export async function removeShares(client: Client, inputs: string[]) {
  const own = await listOwn(client);
  const targets = inputs.map((input) => {
    const ref = parseShareRef(input);
    const found = own.find((s) => s.slug === ref.slug && (ref.kind === null || ref.kind === s.kind));
    if (!found) throw new CliError(`No share of yours is named ${input}`, EXIT.notFound);
    return found;
  });
  const pasteIds = targets.filter((t) => t.kind === "paste").map((t) => t.id);
  const fileIds = targets.filter((t) => t.kind === "file").map((t) => t.id);
  if (pasteIds.length)
    await client.call("/pastes/batch-delete", { method: "DELETE", json: { ids: pasteIds } });
  if (fileIds.length) {
    const result = await client.call<{ failed: Array<{ id: string; error: string }> }>(
      "/files/batch-delete",
      { method: "DELETE", json: { ids: fileIds, delete_mode: "both" } },
    );
    if (result.failed?.length)
      throw new CliError(`Could not delete: ${result.failed.map((f) => f.error).join("; ")}`, EXIT.server);
  }
  return targets.map((t) => ({ kind: t.kind, slug: t.slug, deleted: true }));
}
