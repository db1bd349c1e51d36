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
 * Responses: `REPEATED_RESPONSE_FIELDS` lists the answers that repeat fields
 * under a second name; the routes build them with the helpers below.
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
    fields: "the paste at the top level beside data, plus expires_at and max_views",
    servedClient: "0.7.3's paste page read the bare paste object and the 1.x snake_case names",
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

/** The snake_case copies of a paste view's camelCase fields (see REPEATED_RESPONSE_FIELDS). */
export function legacyPasteFields(data: { expiresAt: string | null; maxViews: number | null }) {
  return { expires_at: data.expiresAt, max_views: data.maxViews };
}
