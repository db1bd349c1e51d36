/**
 * ClipShare's logger: pino, one JSON line per call in pino's format
 * (`{"level":30,"time":"<ISO>","service":"clipshare",...bindings,...fields,"msg":"..."}`).
 * Every secret a line could carry is censored by one list (SECRET_FIELDS, URL_FIELDS), a field
 * that cannot be serialized never costs the line, and lines go to stdout asynchronously, so a
 * slow log reader never holds up a request.
 */
import pino, { type DestinationStream } from "pino";

export type Logger = pino.Logger;
export type LevelName = "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent";
const LEVEL_NAMES: readonly string[] = ["fatal", "error", "warn", "info", "debug", "trace", "silent"];

/** Where lines go when not stdout (tests): anything with a `write(line)`. */
export type LogDestination = DestinationStream;

/**
 * Field names whose value is a credential, at the top of a line's fields or one level down
 * (`user.password`). Header names are lower case, as Node gives them.
 */
const SECRET_NAMES = [
  "password",
  "currentPassword",
  "newPassword",
  "token",
  "accessToken",
  "refreshToken",
  "shareToken",
  "apiKey",
  "api_key",
  "secret",
  "secretKey",
  "secretAccessKey",
  "clientSecret",
  "signature",
  "sig",
  "authorization",
  "cookie",
  "set-cookie",
];
const HEADER_OWNERS = ["req", "res", "request", "response"];
const SECRET_HEADERS = [
  "authorization",
  "proxy-authorization",
  "cookie",
  "set-cookie",
  "x-api-key",
  "x-custom-auth-key",
];

/** Fields that hold a URL or a request target: kept, with the values of SECRET_QUERY cut out. */
const URL_NAMES = ["url", "href", "target", "location", "uploadUrl", "downloadUrl"];
/** Query parameters that carry a credential: signed URLs' signatures, share tokens, passwords. */
const SECRET_QUERY =
  /^(sig|signature|x-amz-signature|x-amz-credential|x-amz-security-token|token|access_token|password|api_?key|key)$/i;

const field = (name: string) => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : `["${name}"]`);
const join = (owner: string, name: string) => {
  const f = field(name);
  return f.startsWith("[") ? `${owner}${f}` : `${owner}.${f}`;
};

const SECRET_FIELDS = [
  ...SECRET_NAMES.map(field),
  ...SECRET_NAMES.map((n) => join("*", n)),
  ...HEADER_OWNERS.flatMap((o) => SECRET_HEADERS.map((h) => join(`${o}.headers`, h))),
];
/** Headers that hold a URL (a redirect to a presigned URL, a page that had a token in its query). */
const URL_HEADERS = ["location", "referer", "content-location"];
const URL_FIELDS = [
  ...URL_NAMES,
  ...URL_NAMES.map((n) => `*.${n}`),
  ...HEADER_OWNERS.flatMap((o) => URL_HEADERS.map((h) => join(`${o}.headers`, h))),
];
const URL_FIELD_NAMES = new Set([...URL_NAMES, ...URL_HEADERS]);

/** `value` with the values of credential query parameters replaced; other text as it was. */
export function redactUrl(value: string): string {
  const query = value.indexOf("?");
  if (query === -1) return value;
  const hash = value.indexOf("#", query);
  const end = hash === -1 ? value.length : hash;
  const params = value
    .slice(query + 1, end)
    .split("&")
    .map((pair) => {
      const eq = pair.indexOf("=");
      const name = eq === -1 ? pair : pair.slice(0, eq);
      let decoded = name;
      try {
        decoded = decodeURIComponent(name);
      } catch {}
      return eq !== -1 && SECRET_QUERY.test(decoded) ? `${name}=[Redacted]` : pair;
    });
  return `${value.slice(0, query + 1)}${params.join("&")}${value.slice(end)}`;
}

function censor(value: unknown, path: string[]): unknown {
  const name = path[path.length - 1] ?? "";
  if (URL_FIELD_NAMES.has(name)) return typeof value === "string" ? redactUrl(value) : value;
  return "[Redacted]";
}

/** What a line says in place of fields that could not be serialized (a getter or toJSON threw). */
const UNSERIALIZABLE = { logError: "the fields of this line could not be serialized" };

/**
 * Stdout through pino's asynchronous destination: a log call only appends to a buffer, and a
 * reader that does not keep up costs at most MAX_BUFFERED bytes (further lines are dropped) but
 * never a wait. pino flushes the buffer synchronously when the process exits.
 */
const MAX_BUFFERED = 16 * 1024 * 1024;
let stdout: DestinationStream | undefined;
const stdoutDestination = () => {
  stdout ??= pino.destination({ dest: 1, sync: false, maxLength: MAX_BUFFERED });
  return stdout;
};

/** Logs at `level` and above to `destination`, stdout by default. */
export function createLogger(level: LevelName, destination?: LogDestination): Logger {
  if (!LEVEL_NAMES.includes(level)) throw new Error(`Unknown log level "${level}"`);
  return pino(
    {
      level,
      base: { service: "clipshare" },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (_label, number) => ({ level: number }) },
      redact: { paths: [...SECRET_FIELDS, ...URL_FIELDS], censor },
      hooks: {
        logMethod(args, method) {
          try {
            method.apply(this, args);
          } catch {
            const msg = args.find((a, i) => i > 0 && typeof a === "string") ?? args[0];
            method.call(this, UNSERIALIZABLE, typeof msg === "string" ? msg : undefined);
          }
        },
      },
    },
    destination ?? stdoutDestination(),
  );
}

/** The fields of the one line each request logs at `info` ("request"). */
export interface AccessLine {
  reqId: string;
  method: string;
  path: string;
  status: number;
  ms: number;
}

/** Writes a request's access line; null when the level hides info lines. */
export function accessLogWriter(log: Logger): ((line: AccessLine) => void) | null {
  if (!log.isLevelEnabled("info")) return null;
  return (line) => log.info(line, "request");
}
