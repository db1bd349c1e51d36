import pino, { type Logger } from "pino";

export type { Logger };

/** JSON logs on stdout; every request logs through a child carrying its request id. */
export function createLogger(level: string): Logger {
  return pino({
    level,
    base: { service: "clipshare" },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: ["req.headers.authorization", "password", "*.password"], remove: true },
  });
}

export interface AccessLine {
  reqId: string;
  method: string;
  path: string;
  status: number;
  ms: number;
}

/**
 * The one line each request logs, in the shape `log.child({reqId}).info({...}, "request")`
 * would write, but assembled as a string and written straight to the logger's destination:
 * no child logger, redaction pass or serializer objects per request. Null when the level
 * hides info lines. Only the request id and path come from the client: both are JSON-escaped.
 */
export function accessLogWriter(log: Logger): ((line: AccessLine) => void) | null {
  if (!log.isLevelEnabled("info")) return null;
  const stream = (log as unknown as Record<symbol, { write(s: string): void }>)[pino.symbols.streamSym];
  if (!stream) return null;
  const bindings = JSON.stringify(log.bindings()).slice(1, -1);
  const prefix = `{"level":${log.levels.values.info},"time":"`;
  const afterTime = `"${bindings ? `,${bindings}` : ""},"reqId":`;
  return (l) => {
    stream.write(
      `${prefix}${new Date().toISOString()}${afterTime}${JSON.stringify(l.reqId)},"method":${JSON.stringify(l.method)},"path":${JSON.stringify(l.path)},"status":${l.status},"ms":${l.ms},"msg":"request"}\n`,
    );
  };
}
