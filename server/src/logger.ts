import { writeSync } from "node:fs";

/**
 * ClipShare's JSON logger: one line per call, in the field names, order and level numbers log
 * pipelines parse: `{"level":30,"time":"<ISO>","service":"clipshare",...bindings,...fields,"msg":"..."}`.
 * Secrets are left out (`password`, `<any>.password`, `req.headers.authorization`), `err` becomes
 * `{type, message, stack, ...own properties}`, and a log call never throws.
 */

const LEVELS = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60, silent: Infinity };
export type LevelName = keyof typeof LEVELS;

/** Where lines go; `write` must not throw (a log call never does). */
export interface LogDestination {
  write(line: string): void;
}

export class Logger {
  /** `bindingsJson`: the JSON text every line carries after `time`, `,"service":"clipshare",...`. */
  constructor(
    readonly level: LevelName,
    readonly destination: LogDestination,
    readonly bindingsJson: string,
  ) {}

  trace(objOrMsg: object | string, msg?: string): void {
    this.#log(LEVELS.trace, objOrMsg, msg);
  }
  debug(objOrMsg: object | string, msg?: string): void {
    this.#log(LEVELS.debug, objOrMsg, msg);
  }
  info(objOrMsg: object | string, msg?: string): void {
    this.#log(LEVELS.info, objOrMsg, msg);
  }
  warn(objOrMsg: object | string, msg?: string): void {
    this.#log(LEVELS.warn, objOrMsg, msg);
  }
  error(objOrMsg: object | string, msg?: string): void {
    this.#log(LEVELS.error, objOrMsg, msg);
  }
  fatal(objOrMsg: object | string, msg?: string): void {
    this.#log(LEVELS.fatal, objOrMsg, msg);
  }

  isLevelEnabled(level: LevelName): boolean {
    return level !== "silent" && LEVELS[level] >= LEVELS[this.level];
  }

  /** A logger whose lines also carry `bindings`, after this one's. */
  child(bindings: object): Logger {
    return new Logger(this.level, this.destination, this.bindingsJson + fieldsJson(bindings));
  }

  bindings(): Record<string, unknown> {
    return JSON.parse(`{${this.bindingsJson.slice(1)}}`);
  }

  #log(level: number, objOrMsg: object | string, msg?: string): void {
    if (level < LEVELS[this.level]) return;
    let fields = "";
    if (typeof objOrMsg !== "object" || objOrMsg === null) msg = objOrMsg;
    else if (!(objOrMsg instanceof Error)) fields = fieldsJson(objOrMsg);
    else {
      // An Error logged on its own is the line's `err`, and its message the line's.
      msg ??= objOrMsg.message;
      fields = fieldsJson({ err: objOrMsg });
    }
    const text = msg === undefined ? "" : `,"msg":${JSON.stringify(msg)}`;
    this.destination.write(
      `{"level":${level},"time":"${new Date().toISOString()}"${this.bindingsJson}${fields}${text}}\n`,
    );
  }
}

/** Logs at `level` and above to `destination`, stdout by default. */
export function createLogger(level: LevelName, destination: LogDestination = STDOUT): Logger {
  if (!Object.hasOwn(LEVELS, level)) throw new Error(`Unknown log level "${level}"`);
  return new Logger(level, destination, ',"service":"clipshare"');
}

export interface AccessLine {
  reqId: string;
  method: string;
  path: string;
  status: number;
  ms: number;
}

/**
 * The one line each request logs, exactly as `log.child({reqId}).info({...}, "request")` would
 * write it, but assembled from a prebuilt prefix: no child logger, redaction pass or field object
 * per request. Null when the level hides info lines. Only the request id and path come from the
 * client: both are JSON-escaped.
 */
export function accessLogWriter(log: Logger): ((line: AccessLine) => void) | null {
  if (!log.isLevelEnabled("info")) return null;
  const { destination } = log;
  const prefix = `{"level":${LEVELS.info},"time":"`;
  const afterTime = `"${log.bindingsJson},"reqId":`;
  return (l) => {
    destination.write(
      `${prefix}${new Date().toISOString()}${afterTime}${JSON.stringify(l.reqId)},"method":${JSON.stringify(l.method)},"path":${JSON.stringify(l.path)},"status":${l.status},"ms":${l.ms},"msg":"request"}\n`,
    );
  };
}

/** `obj` as JSON text to append after other fields (`,"a":1,...`; "" when empty); never throws. */
function fieldsJson(obj: object): string {
  try {
    const fields = obj as Fields;
    const err = isErrorLike(fields.err) ? serializeError(fields.err, new Set()) : fields.err;
    const json = JSON.stringify(redact(err === fields.err ? fields : { ...fields, err }), safeValues());
    return json.length > 2 ? `,${json.slice(1, -1)}` : "";
  } catch {
    // A getter or toJSON that throws: the line still says what happened, without its fields.
    return ',"logError":"the fields of this line could not be serialized"';
  }
}

/** A JSON.stringify replacer for what JSON cannot hold: BigInt as its digits, a cycle as "[Circular]". */
function safeValues() {
  const ancestors: unknown[] = [];
  return function (this: unknown, _key: string, value: unknown): unknown {
    if (typeof value === "bigint") return value.toString();
    if (typeof value !== "object" || value === null) return value;
    // The walk is depth first: objects it has left are no longer ancestors.
    while (ancestors.length > 0 && ancestors[ancestors.length - 1] !== this) ancestors.pop();
    if (ancestors.includes(value)) return "[Circular]";
    ancestors.push(value);
    return value;
  };
}

type Fields = Record<string, unknown>;
const isObject = (v: unknown): v is Fields => typeof v === "object" && v !== null;

/** A copy without `password`, `<any>.password` and `req.headers.authorization`. */
function redact(fields: Fields): Fields {
  const out = { ...fields };
  delete out.password;
  for (const [key, value] of Object.entries(out)) {
    if (isObject(value) && Object.hasOwn(value, "password")) out[key] = without(value, "password");
  }
  const req = out.req;
  if (isObject(req) && isObject(req.headers) && Object.hasOwn(req.headers, "authorization")) {
    out.req = { ...req, headers: without(req.headers, "authorization") };
  }
  return out;
}

function without(fields: Fields, key: string): Fields {
  const { [key]: _, ...rest } = fields;
  return rest;
}

type ErrorLike = Fields & { message: string };
const isErrorLike = (v: unknown): v is ErrorLike => isObject(v) && typeof v.message === "string";

/**
 * `{type, message, stack, ...own enumerable properties}`. Causes are appended to the message
 * (`outer: inner`) and the stack (`caused by: ...`); an error met twice is not followed again.
 */
function serializeError(err: ErrorLike, seen: Set<unknown>): Fields {
  seen.add(err);
  const out: Fields = {
    type: typeof err.constructor === "function" ? err.constructor.name : String(err.name),
    message: withCauses(err, (e) => e.message, ": "),
    stack: withCauses(err, (e) => String(e.stack ?? ""), "\ncaused by: "),
  };
  if (err instanceof AggregateError && Array.isArray(err.errors)) {
    out.aggregateErrors = err.errors.map((e) =>
      isErrorLike(e) && !seen.has(e) ? serializeError(e, seen) : e,
    );
  }
  for (const key in err) {
    if (out[key] !== undefined) continue;
    const value = err[key];
    if (!isErrorLike(value)) out[key] = value;
    else if (key !== "cause" && !seen.has(value)) out[key] = serializeError(value, seen);
  }
  return out;
}

function withCauses(err: ErrorLike, part: (e: ErrorLike) => string, separator: string): string {
  let text = part(err);
  const chain = new Set<unknown>([err]);
  for (let cause = err.cause; isErrorLike(cause); cause = cause.cause) {
    if (chain.has(cause)) return `${text}${separator}...`;
    chain.add(cause);
    text += separator + part(cause);
  }
  return text;
}

/**
 * Stdout, written synchronously so the last lines before `process.exit` are not lost. A pipe
 * whose reader is slow may be non-blocking: on EAGAIN wait 10 ms and retry, for at most 10 s
 * before dropping the line; any other failure (the reader is gone) drops it at once.
 */
const STDOUT: LogDestination = {
  write(line) {
    let rest = Buffer.from(line);
    for (let waits = 0; rest.length > 0 && waits < 1000; ) {
      try {
        rest = rest.subarray(writeSync(1, rest));
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== "EAGAIN") return;
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
        waits++;
      }
    }
  },
};
