/**
 * The WebDAV `If` request header (RFC 4918 §10.4):
 *
 *   If = ( 1*No-tag-list | 1*Tagged-list )
 *   No-tag-list = List ; Tagged-list = Resource-Tag 1*List
 *   List = "(" 1*Condition ")" ; Condition = ["Not"] (State-token | "[" entity-tag "]")
 *
 * Parsing is pure; evaluation asks the caller for each named resource's state
 * (its current entity tag and the lock tokens that cover it).
 */

export interface IfCondition {
  not: boolean;
  kind: "token" | "etag";
  /** A state token (Coded-URL content) or an entity tag as sent (quotes and W/ kept). */
  value: string;
}

export interface IfList {
  /** The Resource-Tag of a tagged list (as sent), or null for a No-tag-list (the request URI). */
  resource: string | null;
  conditions: IfCondition[];
}

export class IfHeaderError extends Error {
  override readonly name = "IfHeaderError";
}

export function parseIfHeader(header: string): IfList[] {
  const lists: IfList[] = [];
  let pos = 0;
  let currentTag: string | null = null;
  let tagged: boolean | null = null;
  const fail = (message: string): never => {
    throw new IfHeaderError(`Malformed If header: ${message}`);
  };
  const skip = () => {
    while (pos < header.length && " \t\r\n".includes(header[pos]!)) pos++;
  };
  const readUntil = (close: string): string => {
    const end = header.indexOf(close, pos);
    if (end === -1) fail(`missing '${close}'`);
    const value = header.slice(pos, end);
    pos = end + 1;
    return value;
  };

  for (;;) {
    skip();
    if (pos >= header.length) break;
    const c = header[pos];
    if (c === "<") {
      // A Resource-Tag: only where lists are tagged, and followed by at least one list.
      if (tagged === false) fail("a resource tag after untagged lists");
      tagged = true;
      pos++;
      currentTag = readUntil(">").trim();
      if (!currentTag) fail("empty resource tag");
      skip();
      if (header[pos] !== "(") fail("a resource tag must be followed by a list");
      continue;
    }
    if (c !== "(") fail(`unexpected '${c}'`);
    if (tagged === null) tagged = false;
    pos++;
    const conditions: IfCondition[] = [];
    for (;;) {
      skip();
      if (pos >= header.length) fail("unterminated list");
      if (header[pos] === ")") {
        pos++;
        break;
      }
      let not = false;
      if (header.slice(pos, pos + 3).toLowerCase() === "not") {
        not = true;
        pos += 3;
        skip();
      }
      const open = header[pos];
      if (open === "<") {
        pos++;
        const token = readUntil(">").trim();
        if (!token) fail("empty state token");
        conditions.push({ not, kind: "token", value: token });
      } else if (open === "[") {
        pos++;
        skip();
        const start = pos;
        if (header.startsWith("W/", pos)) pos += 2;
        if (header[pos] !== '"') fail("entity tag must be quoted");
        pos++;
        while (pos < header.length && header[pos] !== '"') {
          if (header[pos] === "\\") pos++;
          pos++;
        }
        if (pos >= header.length) fail("unterminated entity tag");
        pos++;
        const etag = header.slice(start, pos);
        skip();
        if (header[pos] !== "]") fail("missing ']'");
        pos++;
        conditions.push({ not, kind: "etag", value: etag });
      } else {
        fail("expected a state token or an entity tag");
      }
    }
    if (conditions.length === 0) fail("empty list");
    lists.push({ resource: tagged ? currentTag : null, conditions });
  }
  if (lists.length === 0) fail("no lists");
  return lists;
}

/** What a condition is checked against. */
export interface ResourceState {
  /** Current entity tag, quoted (`"abc"`), or null when the resource has none or does not exist. */
  etag: string | null;
  /** Tokens of the active locks covering the resource. */
  lockTokens: ReadonlySet<string>;
}

/** Strong comparison ignoring a weak prefix on either side (an If header names states, not representations). */
function etagEquals(a: string, b: string): boolean {
  const strip = (t: string) => (t.startsWith("W/") ? t.slice(2) : t);
  return strip(a) === strip(b);
}

export function evaluateList(list: IfList, state: ResourceState): boolean {
  return list.conditions.every((c) => {
    const holds =
      c.kind === "token"
        ? state.lockTokens.has(c.value)
        : state.etag !== null && etagEquals(c.value, state.etag);
    return c.not ? !holds : holds;
  });
}

/** Lock tokens the request presents (positively) anywhere in its If header. */
export function submittedTokens(lists: IfList[]): Set<string> {
  const tokens = new Set<string>();
  for (const list of lists)
    for (const c of list.conditions) if (c.kind === "token" && !c.not) tokens.add(c.value);
  return tokens;
}
