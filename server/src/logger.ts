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
