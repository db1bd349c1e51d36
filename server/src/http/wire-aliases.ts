/**
 * The 0.7.3 spellings ClipShare keeps at its edge. Schemas, services and the
 * web app use one spelling (snake_case); the fields 0.7.3 clients send or read
 * in another spelling are translated here, and only here.
 *
 * Requests: every JSON body, form and query that a route validates passes
 * through `acceptAliases` (http/body.ts `parseWith`), which renames an alias to
 * its field. A request that sends both spellings with different values is a 400
 * that names the field, rather than one spelling silently winning.
 *
 * Responses: services answer in snake_case. `RESPONSE_ALIASES` lists the
 * answers whose 0.7.3 wire spelled fields in camelCase; a route passes such an
 * answer through `withAliases`, which adds each camelCase copy beside its
 * field, so what a 0.7.3 client reads is still there. `REPEATED_RESPONSE_FIELDS`
 * lists the other repetitions (the bare paste at the top level, `success`
 * inside `data`).
 */
import { AppError } from "../errors";

export interface RequestAlias {
  /** The spelling a 0.7.3 client sends. */
  alias: string;
  /** The one spelling inside ClipShare. */
  field: string;
  /** The client behaviour that needs the alias. */
  servedClient: string;
}

export const REQUEST_ALIASES: readonly RequestAlias[] = [
  {
    alias: "maxViews",
    field: "max_views",
    servedClient: "0.7.3's paste form and scripts send maxViews on POST /paste and PUT /pastes/:id",
  },
  {
    alias: "expiresAt",
    field: "expires_at",
    servedClient: "0.7.3's paste form and scripts send expiresAt on POST /paste and PUT /pastes/:id",
  },
  {
    alias: "newSlug",
    field: "new_slug",
    servedClient: '0.7.3\'s paste edit dialog sends newSlug ("" or null asks for a random one)',
  },
  {
    alias: "clearPassword",
    field: "clear_password",
    servedClient: "0.7.3's paste edit dialog sends clearPassword: true to remove the password",
  },
];

const ALIAS_TO_FIELD = new Map(REQUEST_ALIASES.map((a) => [a.alias, a.field]));

/** Same value in both spellings: equal primitives, or equal JSON for objects. */
function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * The input with every alias renamed to its field. Objects without an alias are
 * returned as they are (no copy).
 */
export function acceptAliases(input: unknown): unknown {
  if (input === null || typeof input !== "object" || Array.isArray(input)) return input;
  const record = input as Record<string, unknown>;
  let renamed: Record<string, unknown> | null = null;
  for (const key of Object.keys(record)) {
    const field = ALIAS_TO_FIELD.get(key);
    if (field === undefined) continue;
    const aliasValue = record[key];
    if (Object.hasOwn(record, field) && record[field] !== undefined && aliasValue !== undefined) {
      if (!sameValue(record[field], aliasValue)) throw conflictingSpellings(field, key);
    }
    renamed ??= { ...record };
    delete renamed[key];
    if (renamed[field] === undefined) renamed[field] = aliasValue;
  }
  return renamed ?? input;
}

function conflictingSpellings(field: string, alias: string) {
  return new AppError(
    400,
    "conflicting_fields",
    `${field} and ${alias} were both sent with different values; send one of them`,
    { field, alias },
  );
}

/**
 * Answers that repeat fields under a second name, with the client that reads
 * the repetition. Kept as data so docs/api-compatibility.md and the
 * compatibility tests can name each one.
 */
export const REPEATED_RESPONSE_FIELDS = [
  {
    routes: "GET /paste/:slug, POST /paste/:slug",
    fields: "the paste (with its aliases) at the top level beside data",
    servedClient: "0.7.3's paste page reads the bare paste object",
  },
  {
    routes: "POST /paste/:slug",
    fields: "plain_password at the top level",
    servedClient: "0.7.3's paste page builds its raw link from the password just typed",
  },
  {
    routes: "upload, edit and link answers (withInlineStatus)",
    fields: "success (and message) inside data",
    servedClient: "0.7.3's upload and edit code reads data.success",
  },
] as const;

/** One group of response aliases: `[field inside, camelCase copy on the wire]`, and who reads them. */
export interface ResponseAliasGroup {
  /** The answers that carry the copies. */
  readonly answers: string;
  /** The client behaviour that needs them. */
  readonly servedClient: string;
  readonly pairs: readonly (readonly [field: string, alias: string])[];
}

export const RESPONSE_ALIASES = {
  paste: {
    answers: "POST /paste, GET and POST /paste/:slug, GET and PUT /pastes/:id",
    servedClient:
      "0.7.3's paste page and paste form read expiresAt, maxViews, hasPassword, requiresPassword, " +
      "isLastView, createdAt, updatedAt and authorizedBy; scripts written against earlier ClipShare " +
      "releases read remainingViews and the accessToken that opens /raw/:slug",
    pairs: [
      ["expires_at", "expiresAt"],
      ["max_views", "maxViews"],
      ["remaining_views", "remainingViews"],
      ["has_password", "hasPassword"],
      ["requires_password", "requiresPassword"],
      ["is_last_view", "isLastView"],
      ["created_at", "createdAt"],
      ["updated_at", "updatedAt"],
      ["authorized_by", "authorizedBy"],
      ["access_token", "accessToken"],
    ],
  },
  uploadShare: {
    answers: "s3/presign, url/presign, files/multipart/init and complete, url/multipart/init and complete",
    servedClient:
      "0.7.3's upload page reads contentType, hasPassword, expiresAt and maxViews of the share being " +
      "made, storagePath, partSize, partCount and totalSize of a multipart start, fileId of its " +
      "completion and abort, and corsSupported and sourceUrl of a URL upload",
    pairs: [
      ["content_type", "contentType"],
      ["has_password", "hasPassword"],
      ["expires_at", "expiresAt"],
      ["max_views", "maxViews"],
      ["storage_path", "storagePath"],
      ["part_size", "partSize"],
      ["part_count", "partCount"],
      ["total_size", "totalSize"],
      ["file_id", "fileId"],
      ["cors_supported", "corsSupported"],
      ["source_url", "sourceUrl"],
    ],
  },
} as const satisfies Record<string, ResponseAliasGroup>;

type Pairs<G extends ResponseAliasGroup> = G["pairs"][number];
/** An answer with the camelCase copies of the fields it has (what the wire carries). */
export type WithAliases<T, G extends ResponseAliasGroup> = T & {
  [P in Pairs<G> as P[0] extends keyof T ? P[1] : never]: P[0] extends keyof T ? T[P[0]] : never;
};

/**
 * The answer as JSON text with each aliased field it holds repeated under its
 * 0.7.3 name. Written as text after the answer's own members, not by adding
 * properties to a copy: a copy that grows ten properties by computed keys drops
 * to V8's slow dictionary objects, and building and serializing it cost 40 µs
 * more per paste view where this costs about 2 µs (decision 0086).
 */
export function aliasedJson(data: object, group: ResponseAliasGroup): string {
  const json = JSON.stringify(data);
  let copies = "";
  for (const [field, alias] of group.pairs) {
    const value = (data as Record<string, unknown>)[field];
    if (value !== undefined) copies += `,"${alias}":${JSON.stringify(value)}`;
  }
  return copies === "" ? json : json === "{}" ? `{${copies.slice(1)}}` : `${json.slice(0, -1)}${copies}}`;
}
