/**
 * A small, namespace-aware XML parser for WebDAV request bodies, and the
 * serializer for dead property values.
 *
 * Safe by construction: a DOCTYPE is refused outright, so there are no
 * internal or external entities to expand and nothing is ever fetched; only
 * the five predefined entities and character references are known. Depth,
 * element count and input size are bounded. Anything that is not well-formed
 * XML with well-formed namespaces (XML 1.0 + Namespaces in XML 1.0, e.g. an
 * empty `xmlns:p=""` or an undeclared prefix) throws XmlError, which the
 * WebDAV layer answers with 400.
 */

export const XML_NS = "http://www.w3.org/XML/1998/namespace";
const XMLNS_NS = "http://www.w3.org/2000/xmlns/";

export interface XmlAttribute {
  /** Namespace URI; "" for unprefixed attributes. */
  ns: string;
  local: string;
  value: string;
}

export interface XmlElement {
  type: "element";
  /** Namespace URI; "" when the element is in no namespace. */
  ns: string;
  local: string;
  attributes: XmlAttribute[];
  children: XmlNode[];
}

export interface XmlText {
  type: "text";
  text: string;
}

export type XmlNode = XmlElement | XmlText;

export class XmlError extends Error {
  override readonly name = "XmlError";
}

export interface ParseLimits {
  maxDepth?: number;
  maxElements?: number;
  maxLength?: number;
}

const DEFAULT_LIMITS: Required<ParseLimits> = { maxDepth: 64, maxElements: 50_000, maxLength: 1024 * 1024 };

const NAME_START =
  "A-Z_a-z\\u00C0-\\u00D6\\u00D8-\\u00F6\\u00F8-\\u02FF\\u0370-\\u037D\\u037F-\\u1FFF\\u200C-\\u200D\\u2070-\\u218F\\u2C00-\\u2FEF\\u3001-\\uD7FF\\uF900-\\uFDCF\\uFDF0-\\uFFFD\\u{10000}-\\u{EFFFF}";
const NAME_CHAR = `${NAME_START}\\-.0-9\\u00B7\\u0300-\\u036F\\u203F-\\u2040`;
/** An XML Name (colons allowed; the namespace layer splits it). */
const NAME = new RegExp(`[${NAME_START}:][${NAME_CHAR}:]*`, "uy");
const NCNAME = new RegExp(`^[${NAME_START}][${NAME_CHAR}]*$`, "u");
// Characters XML 1.0 allows: tab, LF, CR, and from space on, minus surrogate halves (paired ones are fine) and U+FFFE/U+FFFF.
const BAD_CHAR =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const WHITESPACE = /^[ \t\r\n]*$/;
const PREDEFINED: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" };

function isXmlChar(code: number): boolean {
  return (
    code === 0x9 ||
    code === 0xa ||
    code === 0xd ||
    (code >= 0x20 && code <= 0xd7ff) ||
    (code >= 0xe000 && code <= 0xfffd) ||
    (code >= 0x10000 && code <= 0x10ffff)
  );
}

interface RawElement {
  qname: string;
  rawAttributes: Array<[string, string]>;
  children: XmlNode[];
  scope: Map<string, string>;
}

/** Parses a complete document and returns its root element. */
export function parseXml(input: string, limits: ParseLimits = {}): XmlElement {
  const { maxDepth, maxElements, maxLength } = { ...DEFAULT_LIMITS, ...limits };
  if (input.length > maxLength) throw new XmlError("XML body is too large");
  let src = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  src = src.replace(/\r\n?/g, "\n");
  if (BAD_CHAR.test(src)) throw new XmlError("XML contains characters that XML does not allow");

  let pos = 0;
  let elements = 0;
  let root: XmlElement | null = null;
  const stack: Array<{ raw: RawElement; element: XmlElement }> = [];
  const baseScope = new Map<string, string>([["xml", XML_NS]]);

  const fail = (message: string): never => {
    throw new XmlError(`${message} (at offset ${pos})`);
  };

  const readName = (): string => {
    NAME.lastIndex = pos;
    const m = NAME.exec(src);
    if (!m) fail("Expected a name");
    pos += m![0].length;
    return m![0];
  };

  const skipSpace = (): boolean => {
    const start = pos;
    while (pos < src.length && " \t\n".includes(src[pos]!)) pos++;
    return pos > start;
  };

  const decodeText = (raw: string, inAttribute: boolean): string => {
    if (raw.includes("<")) fail("'<' is not allowed here");
    let out = "";
    let i = 0;
    while (i < raw.length) {
      const amp = raw.indexOf("&", i);
      if (amp === -1) {
        out += raw.slice(i);
        break;
      }
      out += raw.slice(i, amp);
      const semi = raw.indexOf(";", amp);
      if (semi === -1 || semi - amp > 12) fail("Unterminated entity reference");
      const ref = raw.slice(amp + 1, semi);
      if (ref.startsWith("#")) {
        const hex = ref[1] === "x";
        const digits = hex ? ref.slice(2) : ref.slice(1);
        if (!(hex ? /^[0-9A-Fa-f]+$/ : /^[0-9]+$/).test(digits)) fail("Malformed character reference");
        const code = Number.parseInt(digits, hex ? 16 : 10);
        if (!isXmlChar(code)) fail("Character reference to a character XML does not allow");
        out += String.fromCodePoint(code);
      } else {
        const value = PREDEFINED[ref];
        if (value === undefined) fail(`Unknown entity &${ref};`);
        out += value;
      }
      i = semi + 1;
    }
    if (inAttribute) out = out.replace(/[\t\n]/g, " ");
    return out;
  };

  const resolve = (
    qname: string,
    scope: Map<string, string>,
    isAttribute: boolean,
  ): { ns: string; local: string } => {
    const colon = qname.indexOf(":");
    if (colon === -1) {
      if (!NCNAME.test(qname)) fail(`Invalid name ${qname}`);
      return { ns: isAttribute ? "" : (scope.get("") ?? ""), local: qname };
    }
    const prefix = qname.slice(0, colon);
    const local = qname.slice(colon + 1);
    if (!NCNAME.test(prefix) || !NCNAME.test(local)) fail(`Invalid qualified name ${qname}`);
    const ns = scope.get(prefix);
    if (ns === undefined || ns === "") fail(`Undeclared namespace prefix ${prefix}`);
    return { ns: ns!, local };
  };

  const openElement = () => {
    pos++; // <
    const qname = readName();
    const rawAttributes: Array<[string, string]> = [];
    for (;;) {
      const spaced = skipSpace();
      const c = src[pos];
      if (c === undefined) fail("Unterminated start tag");
      if (c === ">" || c === "/") break;
      if (!spaced) fail("Attributes must be separated by whitespace");
      const name = readName();
      skipSpace();
      if (src[pos] !== "=") fail("Expected '=' after attribute name");
      pos++;
      skipSpace();
      const quote = src[pos];
      if (quote !== '"' && quote !== "'") fail("Attribute value must be quoted");
      const end = src.indexOf(quote!, pos + 1);
      if (end === -1) fail("Unterminated attribute value");
      rawAttributes.push([name, decodeText(src.slice(pos + 1, end), true)]);
      pos = end + 1;
    }
    const selfClosing = src[pos] === "/";
    if (selfClosing) {
      if (src[pos + 1] !== ">") fail("Expected '>'");
      pos += 2;
    } else pos++;

    if (++elements > maxElements) fail("Too many elements");
    if (stack.length >= maxDepth) fail("Elements are nested too deeply");
    const parentScope = stack.length > 0 ? stack[stack.length - 1]!.raw.scope : baseScope;
    let scope = parentScope;
    const seenNames = new Set<string>();
    for (const [name, value] of rawAttributes) {
      if (seenNames.has(name)) fail(`Duplicate attribute ${name}`);
      seenNames.add(name);
      if (name === "xmlns" || name.startsWith("xmlns:")) {
        if (scope === parentScope) scope = new Map(parentScope);
        if (name === "xmlns") {
          if (value === XML_NS || value === XMLNS_NS) fail("Reserved namespace cannot be the default");
          scope.set("", value);
        } else {
          const prefix = name.slice(6);
          if (!NCNAME.test(prefix)) fail(`Invalid namespace prefix ${prefix}`);
          if (prefix === "xmlns") fail("The xmlns prefix cannot be declared");
          if (value === "") fail(`Namespace prefix ${prefix} cannot be bound to an empty name`);
          if (prefix === "xml" ? value !== XML_NS : value === XML_NS || value === XMLNS_NS) {
            fail(`Reserved prefix or namespace misused: ${prefix}`);
          }
          scope.set(prefix, value);
        }
      }
    }
    const { ns, local } = resolve(qname, scope, false);
    const attributes: XmlAttribute[] = [];
    const expanded = new Set<string>();
    for (const [name, value] of rawAttributes) {
      if (name === "xmlns" || name.startsWith("xmlns:")) continue;
      const a = resolve(name, scope, true);
      const key = `{${a.ns}}${a.local}`;
      if (expanded.has(key)) fail(`Duplicate attribute ${name}`);
      expanded.add(key);
      attributes.push({ ns: a.ns, local: a.local, value });
    }
    const element: XmlElement = { type: "element", ns, local, attributes, children: [] };
    const raw: RawElement = { qname, rawAttributes, children: element.children, scope };
    if (stack.length > 0) stack[stack.length - 1]!.element.children.push(element);
    else {
      if (root) fail("Only one root element is allowed");
      root = element;
    }
    if (!selfClosing) stack.push({ raw, element });
  };

  const closeElement = () => {
    pos += 2; // </
    const qname = readName();
    skipSpace();
    if (src[pos] !== ">") fail("Expected '>'");
    pos++;
    const open = stack.pop();
    if (!open) fail(`Unexpected end tag ${qname}`);
    if (open!.raw.qname !== qname) fail(`End tag ${qname} does not match ${open!.raw.qname}`);
  };

  const pushText = (text: string) => {
    if (text === "") return;
    if (stack.length === 0) {
      if (!WHITESPACE.test(text)) fail("Text is not allowed outside the root element");
      return;
    }
    const children = stack[stack.length - 1]!.element.children;
    const last = children[children.length - 1];
    if (last?.type === "text") last.text += text;
    else children.push({ type: "text", text });
  };

  // Optional XML declaration, only at the very start.
  if (src.startsWith("<?xml") && /[\s?]/.test(src[5] ?? "")) {
    const end = src.indexOf("?>");
    if (end === -1) fail("Unterminated XML declaration");
    const decl = src.slice(5, end);
    if (
      !/^\s+version\s*=\s*(["'])1\.[0-9]+\1(\s+encoding\s*=\s*(["'])[A-Za-z][A-Za-z0-9._-]*\3)?(\s+standalone\s*=\s*(["'])(yes|no)\5)?\s*$/.test(
        decl,
      )
    ) {
      fail("Malformed XML declaration");
    }
    pos = end + 2;
  }

  while (pos < src.length) {
    const lt = src.indexOf("<", pos);
    if (lt === -1) {
      pushText(decodeText(src.slice(pos), false));
      pos = src.length;
      break;
    }
    if (lt > pos) {
      const raw = src.slice(pos, lt);
      if (raw.includes("]]>")) fail("']]>' is not allowed in text");
      pushText(decodeText(raw, false));
      pos = lt;
    }
    if (src.startsWith("<!--", pos)) {
      const end = src.indexOf("-->", pos + 4);
      if (end === -1) fail("Unterminated comment");
      if (src.slice(pos + 4, end).includes("--") || src[end - 1] === "-")
        fail("'--' is not allowed in comments");
      pos = end + 3;
    } else if (src.startsWith("<![CDATA[", pos)) {
      if (stack.length === 0) fail("CDATA is not allowed outside the root element");
      const end = src.indexOf("]]>", pos + 9);
      if (end === -1) fail("Unterminated CDATA section");
      pushText(src.slice(pos + 9, end));
      pos = end + 3;
    } else if (src.startsWith("<!", pos)) {
      fail("Document type declarations and other markup declarations are not allowed");
    } else if (src.startsWith("<?", pos)) {
      pos += 2;
      const target = readName();
      if (target.toLowerCase() === "xml") fail("The XML declaration must come first");
      const end = src.indexOf("?>", pos);
      if (end === -1) fail("Unterminated processing instruction");
      pos = end + 2;
    } else if (src.startsWith("</", pos)) {
      closeElement();
    } else {
      if (root && stack.length === 0) fail("Only one root element is allowed");
      openElement();
    }
  }
  if (stack.length > 0) fail(`Element ${stack[stack.length - 1]!.raw.qname} is not closed`);
  if (!root) fail("The document has no root element");
  return root!;
}

// ---- helpers for reading request bodies ------------------------------------

export const DAV_NS = "DAV:";

export const isElement = (node: XmlNode | undefined): node is XmlElement => node?.type === "element";

export function childElements(el: XmlElement): XmlElement[] {
  return el.children.filter(isElement);
}

export function is(el: XmlElement | undefined, ns: string, local: string): boolean {
  return el !== undefined && el.ns === ns && el.local === local;
}

export function findChild(el: XmlElement, ns: string, local: string): XmlElement | undefined {
  return childElements(el).find((c) => c.ns === ns && c.local === local);
}

export function textContent(node: XmlNode): string {
  if (node.type === "text") return node.text;
  return node.children.map(textContent).join("");
}

/** The "{namespace}local" key dead properties are stored under. */
export const clarkName = (ns: string, local: string) => `{${ns}}${local}`;

export function parseClarkName(name: string): { ns: string; local: string } {
  const close = name.indexOf("}");
  return { ns: name.slice(1, close), local: name.slice(close + 1) };
}

// ---- writing ---------------------------------------------------------------

export function escapeText(text: string): string {
  return text.replace(/[&<>\r]/g, (c) =>
    c === "&" ? "&amp;" : c === "<" ? "&lt;" : c === ">" ? "&gt;" : "&#13;",
  );
}

export function escapeAttribute(text: string): string {
  return text.replace(/[&<>"\t\n\r]/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * Writes an element as a self-contained fragment: every namespace it uses is
 * declared on the fragment's root with generated prefixes, and elements in no
 * namespace stay unprefixed. Responses never declare a default namespace, so
 * the fragment means the same wherever it is embedded.
 */
export function serializeElement(el: XmlElement): string {
  const prefixes = new Map<string, string>();
  const collect = (e: XmlElement) => {
    if (e.ns !== "" && !prefixes.has(e.ns))
      prefixes.set(e.ns, e.ns === XML_NS ? "xml" : `ns${prefixes.size}`);
    for (const a of e.attributes) {
      if (a.ns !== "" && !prefixes.has(a.ns))
        prefixes.set(a.ns, a.ns === XML_NS ? "xml" : `ns${prefixes.size}`);
    }
    for (const c of e.children) if (c.type === "element") collect(c);
  };
  collect(el);
  const qualify = (ns: string, local: string) => (ns === "" ? local : `${prefixes.get(ns)}:${local}`);
  const write = (e: XmlElement, isRoot: boolean): string => {
    let out = `<${qualify(e.ns, e.local)}`;
    if (isRoot) {
      for (const [ns, prefix] of prefixes)
        if (prefix !== "xml") out += ` xmlns:${prefix}="${escapeAttribute(ns)}"`;
    }
    for (const a of e.attributes) out += ` ${qualify(a.ns, a.local)}="${escapeAttribute(a.value)}"`;
    if (e.children.length === 0) return `${out}/>`;
    out += ">";
    for (const c of e.children) out += c.type === "text" ? escapeText(c.text) : write(c, false);
    return `${out}</${qualify(e.ns, e.local)}>`;
  };
  return write(el, true);
}

/** An empty element for a property name, e.g. in propname answers and 404 propstats. */
export function emptyElement(ns: string, local: string): string {
  if (ns === DAV_NS) return `<D:${local}/>`;
  if (ns === "") return `<${local}/>`;
  return `<x:${local} xmlns:x="${escapeAttribute(ns)}"/>`;
}
