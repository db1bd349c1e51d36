/** File requests: create one, list one's own, close or reopen one (docs/file-requests.md). */
import { type CreateFileRequestBody, type FileRequest, fileRequestApi } from "@clipshare/shared";
import type { Client } from "./client";

export interface RequestOptions {
  message?: string | undefined;
  folder?: string | undefined;
  storage?: string | undefined;
  max_files?: number | undefined;
  max_file_bytes?: number | undefined;
  allowed_types?: string[] | undefined;
  expires_in?: number | undefined;
  password?: string | undefined;
  show_received?: boolean | undefined;
}

/** A request as the CLI prints it: with the visitor page's full link. */
function presented(client: Client, request: FileRequest) {
  return { ...request, url: client.resolve(request.url) };
}

export async function createRequest(client: Client, title: string, options: RequestOptions) {
  client.requireKey();
  const { folder, storage, ...rest } = options;
  const body: CreateFileRequestBody = {
    title,
    target: folder
      ? { kind: "folder", path: folder }
      : { kind: "share", ...(storage ? { storage_config_id: storage } : {}) },
    ...Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined)),
  };
  return presented(client, await client.use((api) => fileRequestApi(api).create(body)));
}

/** Every request of the caller's, page by page. */
export async function listRequests(client: Client) {
  client.requireKey();
  const all: FileRequest[] = [];
  for (let offset = 0; ; ) {
    const page = await client.use((api) => fileRequestApi(api).list({ limit: 200, offset }));
    all.push(...page.requests);
    offset += page.requests.length;
    if (!page.pagination.hasMore || page.requests.length === 0) break;
  }
  return all.map((r) => presented(client, r));
}

/** Closes or reopens a request named by its id, slug or link. */
export async function setRequestStatus(client: Client, ref: string, status: "open" | "closed") {
  client.requireKey();
  const id = ref.replace(/\/+$/, "").split("/").pop() ?? ref;
  return presented(client, await client.use((api) => fileRequestApi(api).update(id, { status })));
}
